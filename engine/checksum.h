/*
 * checksum.h - CRC-32C (Castagnoli), the checksum of every stored file.
 *
 * CRC-32C detects all burst errors up to 32 bits and is what ext4, iSCSI
 * and RocksDB use for the same job. x86-64 CPUs with SSE4.2 compute it in
 * hardware (~10+ GB/s); elsewhere a slicing-by-8 table version runs at
 * about a byte per cycle. Both give identical results.
 */
#ifndef ATTU_CHECKSUM_H
#define ATTU_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* Extends crc (start with 0) over n bytes. */
uint32_t attu_crc32c(uint32_t crc, const void *data, size_t n);

/* The portable version, for tests that compare both paths. */
uint32_t attu_crc32c_portable(uint32_t crc, const void *data, size_t n);

#endif
