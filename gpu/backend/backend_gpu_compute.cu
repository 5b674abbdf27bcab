// backend_gpu_compute.cu: the GPU backend's ordering and aggregation
// primitives, plus the ones it stages through the host.
//
// On the device:
//  - sort / top_k / segmented_sort: the pattern library's stable merge sort
//    (mergesort.cuh, segmented_sort.cuh) over int64 row numbers with a
//    comparator that reads the key columns directly: NULL placement first,
//    then the value in the column's own type (NaN above every number), then
//    direction. Ties compare equal, so stability gives input order, exactly
//    as the CPU backend's merge sort.
//  - segment_heads: one flag per position, compacted (compact.cuh).
//  - key_encode: one transform (the CPU's order-preserving bit image).
//  - segreduce of the streaming aggregates (COUNT(*), COUNT, SUM, MIN, MAX,
//    AVG_SUM, ANY) over many segments: one thread per segment walking its
//    rows in order, so float sums add in the CPU's order and integer
//    overflow (22003) is detected at the same row.
//
// Staged through the host (device buffers copied down, the CPU backend's
// reference code run, outputs copied back): eval and lbs_segreduce (the
// expression interpreter: text through dictionaries, PostgreSQL's casts,
// rounding and error rules), reduce (a single segment gives one device
// thread nothing to share) and segreduce with rank aggregates
// (NTH_SMALLEST/LARGEST[_ARG]) or fewer segments than kMinDeviceSegments.
// Results are therefore identical to the CPU backend's by construction; the
// cost is the transfer, which the executor's plans keep to the columns an
// expression reads.
#include "gpu/backend/backend_gpu_internal.cuh"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

extern "C" {
#include "engine/expr_program.h"
}
#include "gpu/backend/expr_device.cuh"
#include "gpu/patterns/mergesort.cuh"
#include "gpu/patterns/segmented_sort.cuh"

namespace attu {
namespace gpu_backend {

namespace {

constexpr size_t kMaxCount = 0x7fffffff;
// Below this many segments segreduce runs on the host (one device thread
// per segment would leave the GPU idle).
constexpr size_t kMinDeviceSegments = 1024;

// ---- key columns on the device -----------------------------------------------

struct dkey_t {
  int type;
  const void* data;
  const uint8_t* valid;
  int desc;
  int nulls_first;
};

__device__ inline int fcmp_d(double a, double b) {
  if (isnan(a)) return isnan(b) ? 0 : 1;
  if (isnan(b)) return -1;
  return a < b ? -1 : a > b;
}

// attu_cpu_value_cmp on the device.
__device__ inline int value_cmp(int type, const void* d, int64_t i, int64_t j) {
  switch (type) {
    case ATTU_TYPE_BOOL: {
      int a = static_cast<const uint8_t*>(d)[i], b = static_cast<const uint8_t*>(d)[j];
      return (a > b) - (a < b);
    }
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: {
      int32_t a = static_cast<const int32_t*>(d)[i], b = static_cast<const int32_t*>(d)[j];
      return (a > b) - (a < b);
    }
    case ATTU_TYPE_FLOAT32:
      return fcmp_d(static_cast<const float*>(d)[i], static_cast<const float*>(d)[j]);
    case ATTU_TYPE_FLOAT64:
      return fcmp_d(static_cast<const double*>(d)[i], static_cast<const double*>(d)[j]);
    default: {
      int64_t a = static_cast<const int64_t*>(d)[i], b = static_cast<const int64_t*>(d)[j];
      return (a > b) - (a < b);
    }
  }
}

// The CPU backend's key_cmp: NULLs sort greater unless nulls_first; DESC
// inverts only the value comparison.
__device__ inline int rows_cmp(const dkey_t* keys, int nkeys, int64_t i, int64_t j) {
  for (int k = 0; k < nkeys; ++k) {
    const dkey_t& key = keys[k];
    int ni = key.valid && !key.valid[i], nj = key.valid && !key.valid[j];
    if (ni || nj) {
      if (ni && nj) continue;
      int c = ni ? 1 : -1;
      return key.nulls_first ? -c : c;
    }
    int c = value_cmp(key.type, key.data, i, j);
    if (c) return key.desc ? -c : c;
  }
  return 0;
}

struct row_less_t {
  const dkey_t* keys;
  int nkeys;
  __device__ bool operator()(int64_t a, int64_t b) const { return rows_cmp(keys, nkeys, a, b) < 0; }
};

mem_t<dkey_t> upload_keys(const attu_sort_key* keys, int nkeys, context_t& ctx) {
  std::vector<dkey_t> h((size_t)(nkeys > 0 ? nkeys : 0));
  for (int k = 0; k < nkeys; ++k) {
    h[k].type = keys[k].col.type.id;
    h[k].data = keys[k].col.data ? keys[k].col.data->ptr : nullptr;
    h[k].valid = keys[k].col.valid ? static_cast<const uint8_t*>(keys[k].col.valid->ptr) : nullptr;
    h[k].desc = keys[k].desc;
    h[k].nulls_first = keys[k].nulls_first;
  }
  mem_t<dkey_t> d = to_mem(h, ctx);
  ctx.synchronize();  // h dies on return
  return d;
}

// Sorts perm[0, n) (row numbers) stably by the keys.
void sort_rows(attu_backend* be, const attu_sort_key* keys, int nkeys, int64_t* perm, size_t n) {
  context_t& ctx = CTX(be);
  if (n < 2 || nkeys <= 0) return;
  mem_t<dkey_t> dk = upload_keys(keys, nkeys, ctx);
  mergesort(perm, (long long)n, row_less_t{dk.data(), nkeys}, ctx);
  ctx.synchronize();
}

int gpu_sort(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, attu_buf* perm,
             attu_error* err) {
  if (n > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: sort of %zu rows", n);
  return guarded(err, [&] {
    int64_t* p = I64(perm);
    transform([=] __device__(int i) { p[i] = i; }, (int)n, CTX(be));
    sort_rows(be, keys, nkeys, p, n);
  });
}

int gpu_top_k(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, size_t k,
              attu_buf* perm, attu_error* err) {
  if (n > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: top_k of %zu rows", n);
  if (k == 0) return 0;
  if (k > n) k = n;
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    mem_t<int64_t> all(n, ctx);
    int64_t* p = all.data();
    transform([=] __device__(int i) { p[i] = i; }, (int)n, ctx);
    sort_rows(be, keys, nkeys, p, n);
    ATTU_CUDA_CHECK(cudaMemcpyAsync(perm->ptr, p, k * sizeof(int64_t), cudaMemcpyDeviceToDevice,
                                    ctx.stream()));
    ctx.synchronize();
  });
}

int gpu_segmented_sort(attu_backend* be, const attu_sort_key* keys, int nkeys,
                       const attu_buf* offsets, size_t nseg, attu_buf* perm, size_t n,
                       attu_error* err) {
  if (n > kMaxCount || nseg > kMaxCount)
    return attu_error_set(err, "54000", 0, "GPU backend: segmented_sort of %zu rows", n);
  if (nseg == 0 || n == 0 || nkeys <= 0) return 0;
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    // The segments cover positions [first, last) of perm; positions outside
    // are left alone, as on the CPU.
    int64_t first = 0, last = 0;
    dtoh(&first, I64(offsets), 1, ctx);
    dtoh(&last, I64(offsets) + nseg, 1, ctx);
    if (first < 0 || last > (int64_t)n || last < first)
      throw std::runtime_error("segmented_sort: offsets outside the permutation");
    if (last - first < 2) return;
    mem_t<int> seg32(nseg, ctx);
    int* s32 = seg32.data();
    const int64_t* off = I64(offsets);
    transform([=] __device__(int s) { s32[s] = (int)(off[s] - first); }, (int)nseg, ctx);
    mem_t<dkey_t> dk = upload_keys(keys, nkeys, ctx);
    segmented_sort(I64(perm) + first, (long long)(last - first), s32, (int)nseg,
                   row_less_t{dk.data(), nkeys}, ctx);
    ctx.synchronize();
  });
}

// ---- segment heads -------------------------------------------------------------

struct head_flag_t {
  const dkey_t* keys;
  int nkeys;
  const int64_t* perm;
  __device__ bool operator()(int i) const {
    if (i == 0) return true;
    int64_t a = perm ? perm[i] : i, b = perm ? perm[i - 1] : i - 1;
    for (int c = 0; c < nkeys; ++c) {
      const dkey_t& k = keys[c];
      int na = k.valid && !k.valid[a], nb = k.valid && !k.valid[b];
      if (na != nb) return true;
      if (!na && value_cmp(k.type, k.data, a, b) != 0) return true;
    }
    return false;
  }
};

struct store_pos_t {
  __device__ void operator()(int dst, int src, int64_t* out) const { out[dst] = src; }
};

int gpu_segment_heads(attu_backend* be, const attu_vec* keys, int nkeys, const attu_buf* perm,
                      size_t n, attu_buf** heads_out, size_t* nheads_out, attu_error* err) {
  if (n > kMaxCount)
    return attu_error_set(err, "54000", 0, "GPU backend: segment_heads of %zu rows", n);
  attu_buf* out = nullptr;
  int rc = guarded(err, [&] {
    context_t& ctx = CTX(be);
    std::vector<attu_sort_key> sk((size_t)(nkeys > 0 ? nkeys : 0));
    for (int c = 0; c < nkeys; ++c) sk[c] = attu_sort_key{keys[c], false, false};
    mem_t<dkey_t> dk = upload_keys(sk.data(), nkeys, ctx);
    auto compact = transform_compact((int)n, ctx);
    int kept = compact.upsweep(head_flag_t{dk.data(), nkeys, perm ? I64(perm) : nullptr});
    out = gpu_alloc(be, (size_t)kept * sizeof(int64_t), err);
    if (!out) throw already_set_t();
    compact.downsweep(store_pos_t(), I64(out));
    ctx.synchronize();
    *nheads_out = (size_t)kept;
  });
  if (rc) {
    gpu_free(be, out);
    return -1;
  }
  *heads_out = out;
  return 0;
}

// ---- key encoding ----------------------------------------------------------------

// attu_cpu_key_bits on the device.
__device__ inline int64_t key_bits(int type, const void* d, int64_t i) {
  double f;
  switch (type) {
    case ATTU_TYPE_BOOL: return static_cast<const uint8_t*>(d)[i];
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: return static_cast<const int32_t*>(d)[i];
    case ATTU_TYPE_FLOAT32: f = static_cast<const float*>(d)[i]; break;
    case ATTU_TYPE_FLOAT64: f = static_cast<const double*>(d)[i]; break;
    default: return static_cast<const int64_t*>(d)[i];
  }
  if (f == 0) f = 0;                                        // -0 equals 0
  if (isnan(f)) f = __longlong_as_double(0x7ff8000000000000LL);  // one NaN
  uint64_t u = (uint64_t)__double_as_longlong(f);
  u = (u >> 63) ? ~u : (u | (1ULL << 63));
  return (int64_t)(u ^ (1ULL << 63));
}

int gpu_key_encode(attu_backend* be, const attu_vec* col, size_t n, int64_t null_value,
                   attu_buf* out, attu_error* err) {
  if (n > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: key_encode of %zu rows", n);
  return guarded(err, [&] {
    int type = col->type.id;
    const void* d = col->data->ptr;
    const uint8_t* v = col->valid ? static_cast<const uint8_t*>(col->valid->ptr) : nullptr;
    int64_t* o = I64(out);
    transform([=] __device__(int i) { o[i] = (v && !v[i]) ? null_value : key_bits(type, d, i); },
              (int)n, CTX(be));
    CTX(be).synchronize();
  });
}

// ---- segmented reduction on the device -------------------------------------------

struct dspec_t {
  int op;
  int fl;            // input of the float class
  int in_type;
  const void* in;    // nullptr: every input is a non-NULL zero (as the CPU's load_num)
  const uint8_t* in_valid;
  int out_type;
  void* out;
  uint8_t* out_valid;
};

union num_t {
  int64_t i;
  double f;
};

__device__ inline num_t load_num(const dspec_t& s, int64_t row, int* isnull) {
  num_t n;
  n.i = 0;
  if (!s.in) {
    *isnull = 0;
    return n;
  }
  *isnull = s.in_valid ? !s.in_valid[row] : 0;
  switch (s.in_type) {
    case ATTU_TYPE_BOOL: n.i = static_cast<const uint8_t*>(s.in)[row]; break;
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: n.i = static_cast<const int32_t*>(s.in)[row]; break;
    case ATTU_TYPE_FLOAT32: n.f = static_cast<const float*>(s.in)[row]; break;
    case ATTU_TYPE_FLOAT64: n.f = static_cast<const double*>(s.in)[row]; break;
    default: n.i = static_cast<const int64_t*>(s.in)[row]; break;
  }
  return n;
}

__device__ inline int num_cmp(int fl, num_t a, num_t b) {
  if (fl) return fcmp_d(a.f, b.f);
  return (a.i > b.i) - (a.i < b.i);
}

__device__ inline int width_of(int type) {
  switch (type) {
    case ATTU_TYPE_BOOL:
    case ATTU_TYPE_UNKNOWN: return 1;  // as attu_type_width
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT:
    case ATTU_TYPE_FLOAT32: return 4;
    default: return 8;
  }
}

// The CPU's store_one: NULL stores a zero of the slot's width.
__device__ inline void store_num(const dspec_t& s, int64_t row, num_t v, int isnull) {
  if (s.out_valid) s.out_valid[row] = !isnull;
  if (isnull) {
    switch (width_of(s.out_type)) {
      case 1: static_cast<uint8_t*>(s.out)[row] = 0; break;
      case 4: static_cast<int32_t*>(s.out)[row] = 0; break;
      default: static_cast<int64_t*>(s.out)[row] = 0; break;
    }
    return;
  }
  switch (s.out_type) {
    case ATTU_TYPE_BOOL: static_cast<uint8_t*>(s.out)[row] = (uint8_t)(v.i != 0); break;
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: static_cast<int32_t*>(s.out)[row] = (int32_t)v.i; break;
    case ATTU_TYPE_FLOAT32: static_cast<float*>(s.out)[row] = (float)v.f; break;
    case ATTU_TYPE_FLOAT64: static_cast<double*>(s.out)[row] = v.f; break;
    default: static_cast<int64_t*>(s.out)[row] = v.i; break;
  }
}

__device__ inline bool is_float_type(int t) {
  return t == ATTU_TYPE_FLOAT32 || t == ATTU_TYPE_FLOAT64;
}

// One segment, one spec: the CPU reducer's add / store, row by row.
__device__ void reduce_segment(const dspec_t& s, const int64_t* perm, int64_t b, int64_t e,
                               int64_t seg, int* overflow) {
  int64_t cnt = 0;
  int has = 0;
  num_t acc;
  acc.i = 0;
  for (int64_t pos = b; pos < e; ++pos) {
    int64_t row = perm ? perm[pos] : pos;
    if (s.op == ATTU_REDUCE_COUNT_STAR) {
      ++cnt;
      continue;
    }
    int isnull = 0;
    num_t v = load_num(s, row, &isnull);
    if (isnull) continue;
    ++cnt;
    switch (s.op) {
      case ATTU_REDUCE_SUM:
        if (s.fl) {
          acc.f = has ? acc.f + v.f : v.f;
        } else if (!has) {
          acc.i = v.i;
        } else {
          int64_t r = (int64_t)((uint64_t)acc.i + (uint64_t)v.i);
          if (((acc.i ^ r) & (v.i ^ r)) < 0) {
            atomicExch(overflow, 1);
            return;
          }
          acc.i = r;
        }
        has = 1;
        break;
      case ATTU_REDUCE_AVG_SUM:
        acc.f = (has ? acc.f : 0) + (s.fl ? v.f : (double)v.i);
        has = 1;
        break;
      case ATTU_REDUCE_MIN:
        if (!has || num_cmp(s.fl, v, acc) < 0) acc = v;
        has = 1;
        break;
      case ATTU_REDUCE_MAX:
        if (!has || num_cmp(s.fl, v, acc) > 0) acc = v;
        has = 1;
        break;
      case ATTU_REDUCE_ANY:
        if (!has) acc = v;
        has = 1;
        break;
      default: break;  // COUNT
    }
  }
  num_t out;
  out.i = 0;
  int isnull = 0;
  switch (s.op) {
    case ATTU_REDUCE_COUNT_STAR:
    case ATTU_REDUCE_COUNT: out.i = cnt; break;
    case ATTU_REDUCE_AVG_SUM:
      if (!has) isnull = 1;
      else out.f = acc.f;
      break;
    default:
      if (!has) isnull = 1;
      else if (is_float_type(s.out_type) && !s.fl) out.f = (double)acc.i;
      else out = acc;  // the raw union, as the CPU stores it
      break;
  }
  store_num(s, seg, out, isnull);
}

bool device_reducible(attu_reduce_op op) {
  switch (op) {
    case ATTU_REDUCE_COUNT_STAR:
    case ATTU_REDUCE_COUNT:
    case ATTU_REDUCE_SUM:
    case ATTU_REDUCE_MIN:
    case ATTU_REDUCE_MAX:
    case ATTU_REDUCE_AVG_SUM:
    case ATTU_REDUCE_ANY: return true;
    default: return false;
  }
}

// ---- host staging --------------------------------------------------------------

// Host copies of device buffers for one staged call. Each device buffer is
// copied down once (whole: a primitive may index any of it); outputs are
// copied back by commit(), and only when the host call succeeded, so a
// failed call leaves the device outputs as they were.
class stage_t {
 public:
  explicit stage_t(attu_backend* be) : be_(be) {}
  ~stage_t() {
    for (auto& kv : bufs_) {
      free(kv.second->ptr);
      free(kv.second);
    }
  }
  stage_t(const stage_t&) = delete;
  stage_t& operator=(const stage_t&) = delete;

  attu_buf* in(const attu_buf* d) {
    if (!d) return nullptr;
    auto it = bufs_.find(d);
    if (it != bufs_.end()) return it->second;
    attu_buf* h = static_cast<attu_buf*>(calloc(1, sizeof *h));
    if (!h) throw std::bad_alloc();
    h->ptr = malloc(d->bytes ? d->bytes : 1);
    if (!h->ptr) {
      free(h);
      throw std::bad_alloc();
    }
    h->bytes = d->bytes;
    bufs_[d] = h;
    if (d->bytes) {
      ATTU_CUDA_CHECK(cudaMemcpyAsync(h->ptr, d->ptr, d->bytes, cudaMemcpyDeviceToHost,
                                      CTX(be_).stream()));
      CTX(be_).synchronize();
    }
    return h;
  }
  attu_buf* out(attu_buf* d) {
    attu_buf* h = in(d);
    if (h) back_.push_back(d);
    return h;
  }
  attu_vec vec(const attu_vec& v) {
    attu_vec r = v;
    r.data = in(v.data);
    r.valid = in(v.valid);
    return r;
  }
  attu_out outv(const attu_out& o) {
    attu_out r = o;
    r.data = out(o.data);
    r.valid = out(o.valid);
    return r;
  }
  void commit() {
    for (attu_buf* d : back_) {
      attu_buf* h = bufs_[d];
      if (d->bytes)
        ATTU_CUDA_CHECK(cudaMemcpyAsync(d->ptr, h->ptr, d->bytes, cudaMemcpyHostToDevice,
                                        CTX(be_).stream()));
    }
    CTX(be_).synchronize();
  }

 private:
  attu_backend* be_;
  std::map<const attu_buf*, attu_buf*> bufs_;
  std::vector<attu_buf*> back_;
};

attu_reduce_spec stage_spec(stage_t& st, const attu_reduce_spec& s) {
  attu_reduce_spec r = s;
  r.in = st.vec(s.in);
  r.arg = st.vec(s.arg);
  return r;
}

// ---- eval on the device (the numeric subset) --------------------------------------

struct dcol_t {
  int type;
  const void* data;
  const uint8_t* valid;
};
struct dres_t {
  int type;
  void* data;
  uint8_t* valid;
  int reg;
};

bool device_eval_eligible(const attu_expr_program* p, const attu_vec* inputs,
                          const attu_out* outputs) {
  if (p->nregs > kDevMaxRegs || p->ninputs > p->nregs) return false;
  for (int r = 0; r < p->nregs; ++r)
    if (p->reg_types[r].id == ATTU_TYPE_TEXT) return false;
  for (int i = 0; i < p->ninputs; ++i)
    if (inputs[i].type.id == ATTU_TYPE_TEXT || inputs[i].type.id == ATTU_TYPE_UNKNOWN ||
        !inputs[i].data)
      return false;
  for (int o = 0; o < p->noutputs; ++o)
    if (outputs[o].type.id == ATTU_TYPE_TEXT || outputs[o].type.id == ATTU_TYPE_UNKNOWN ||
        !outputs[o].data)
      return false;
  for (int k = 0; k < p->ninstr; ++k) {
    const attu_instr& in = p->code[k];
    if (!dev_op_supported(in.op) || (in.op == ATTU_OP_CONST && in.imm_s >= 0)) return false;
  }
  return true;
}

// One fused pass: per row, load the inputs, run the program, store the
// outputs. Returns 0, or 1 when some row would raise an error (outputs are
// then unspecified; the caller reruns the reference).
int device_eval(attu_backend* be, const attu_expr_program* p, const attu_vec* inputs, size_t n,
                attu_out* outputs) {
  context_t& ctx = CTX(be);
  std::vector<dinstr_t> code((size_t)p->ninstr);
  for (int k = 0; k < p->ninstr; ++k) {
    const attu_instr& in = p->code[k];
    dinstr_t& d = code[k];
    d.op = in.op;
    d.dst = in.dst; d.a = in.a; d.b = in.b; d.c = in.c; d.d = in.d; d.guard = in.guard;
    d.imm_null = in.imm_null;
    d.imm_i = in.imm_i;
    d.imm_f = in.imm_f;
    d.dst_type = p->reg_types[in.dst].id;
    d.dst_prec = p->reg_types[in.dst].precision;
    d.dst_float = attu_type_mclass(p->reg_types[in.dst].id) == ATTU_MC_FLOAT;
  }
  std::vector<dcol_t> ins((size_t)p->ninputs);
  for (int i = 0; i < p->ninputs; ++i)
    ins[i] = dcol_t{inputs[i].type.id, inputs[i].data->ptr,
                    inputs[i].valid ? static_cast<const uint8_t*>(inputs[i].valid->ptr) : nullptr};
  std::vector<dres_t> outs((size_t)p->noutputs);
  for (int o = 0; o < p->noutputs; ++o) {
    outputs[o].dict = nullptr;
    outs[o] = dres_t{outputs[o].type.id, outputs[o].data->ptr,
                     outputs[o].valid ? static_cast<uint8_t*>(outputs[o].valid->ptr) : nullptr,
                     p->outputs[o]};
  }
  mem_t<dinstr_t> dcode = to_mem(code, ctx);
  mem_t<dcol_t> dins = to_mem(ins, ctx);
  mem_t<dres_t> douts = to_mem(outs, ctx);
  mem_t<int> flag(1, ctx);
  flag.memset(0);
  const dinstr_t* cp = dcode.data();
  const dcol_t* ip = dins.data();
  const dres_t* op = douts.data();
  int* fl = flag.data();
  int ninstr = p->ninstr, nin = p->ninputs, nout = p->noutputs, nregs = p->nregs;
  transform([=] __device__(int row) {
    dslot_t R[kDevMaxRegs];
    for (int r = 0; r < nregs; ++r) {
      R[r].v.i = 0;
      R[r].null = 0;
    }
    for (int i = 0; i < nin; ++i) dev_load(ip[i].type, ip[i].data, ip[i].valid, row, &R[i]);
    if (dev_eval_row(cp, ninstr, R)) {
      atomicExch(fl, 1);
      return;
    }
    for (int o = 0; o < nout; ++o) dev_store(op[o].type, op[o].data, op[o].valid, row, R[op[o].reg]);
  }, (int)n, ctx);
  int failed = 0;
  dtoh(&failed, fl, 1, ctx);
  return failed;
}

int gpu_eval(attu_backend* be, const attu_expr_program* prog, const attu_vec* inputs, size_t n,
             attu_out* outputs, attu_error* err) {
  if (IMPL(be)->device_eval && n <= kMaxCount && device_eval_eligible(prog, inputs, outputs)) {
    int failed = 0;
    if (attu_backend_interrupted(err)) return -1;
    if (guarded(err, [&] { failed = device_eval(be, prog, inputs, n, outputs); })) return -1;
    if (!failed) return 0;
    // Some row fails: the reference below raises its exact error.
  }
  attu_backend* host = IMPL(be)->host;
  return guarded(err, [&] {
    stage_t st(be);
    std::vector<attu_vec> hin((size_t)prog->ninputs);
    for (int i = 0; i < prog->ninputs; ++i) hin[i] = st.vec(inputs[i]);
    std::vector<attu_out> hout((size_t)prog->noutputs);
    for (int o = 0; o < prog->noutputs; ++o) hout[o] = st.outv(outputs[o]);
    int rc = host->eval(host, prog, hin.data(), n, hout.data(), err);
    // TEXT outputs' dictionaries are host objects either way; hand them over.
    for (int o = 0; o < prog->noutputs; ++o) outputs[o].dict = hout[o].dict;
    if (rc) throw already_set_t();
    st.commit();
  });
}

int gpu_lbs_segreduce(attu_backend* be, const attu_lbs_segreduce_args* a, attu_error* err) {
  attu_backend* host = IMPL(be)->host;
  return guarded(err, [&] {
    stage_t st(be);
    attu_lbs_segreduce_args h = *a;
    h.seg_offsets = st.in(a->seg_offsets);
    h.seg_base = st.in(a->seg_base);
    h.right_map = st.in(a->right_map);
    h.left_rows = st.in(a->left_rows);
    std::vector<attu_vec> left((size_t)(a->nleft > 0 ? a->nleft : 0));
    std::vector<attu_vec> right((size_t)(a->nright > 0 ? a->nright : 0));
    for (int i = 0; i < a->nleft; ++i) left[i] = st.vec(a->left[i]);
    for (int i = 0; i < a->nright; ++i) right[i] = st.vec(a->right[i]);
    h.left = left.data();
    h.right = right.data();
    std::vector<attu_reduce_spec> specs((size_t)(a->nreduce > 0 ? a->nreduce : 0));
    std::vector<attu_out> outs(specs.size());
    for (int k = 0; k < a->nreduce; ++k) {
      specs[k] = stage_spec(st, a->reduce[k]);
      outs[k] = st.outv(a->out[k]);
    }
    h.reduce = specs.data();
    h.out = outs.data();
    if (host->lbs_segreduce(host, &h, err)) throw already_set_t();
    st.commit();
  });
}

int host_segreduce(attu_backend* be, const attu_buf* offsets, size_t nseg, const attu_buf* perm,
                   int nreduce, const attu_reduce_spec* specs, attu_out* outs, bool whole,
                   size_t n, attu_error* err) {
  attu_backend* host = IMPL(be)->host;
  return guarded(err, [&] {
    stage_t st(be);
    std::vector<attu_reduce_spec> hs((size_t)nreduce);
    std::vector<attu_out> ho((size_t)nreduce);
    for (int k = 0; k < nreduce; ++k) {
      hs[k] = stage_spec(st, specs[k]);
      ho[k] = st.outv(outs[k]);
    }
    int rc = whole ? host->reduce(host, n, nreduce, hs.data(), ho.data(), err)
                   : host->segreduce(host, st.in(offsets), nseg, st.in(perm), nreduce, hs.data(),
                                     ho.data(), err);
    if (rc) throw already_set_t();
    st.commit();
    // STRING_AGG outputs come back with the dictionary the host built
    for (int k = 0; k < nreduce; ++k)
      if (specs[k].op == ATTU_REDUCE_STRING_AGG) outs[k].dict = ho[k].dict;
  });
}

int gpu_segreduce(attu_backend* be, const attu_buf* offsets, size_t nseg, const attu_buf* perm,
                  int nreduce, const attu_reduce_spec* specs, attu_out* outs, attu_error* err) {
  if (nreduce > 64)
    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                          "too many aggregates in one query (at most 64)");
  if (nseg > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: %zu segments", nseg);
  bool device = nseg >= kMinDeviceSegments;
  for (int k = 0; k < nreduce && device; ++k) device = device_reducible(specs[k].op);
  if (!device) return host_segreduce(be, offsets, nseg, perm, nreduce, specs, outs, false, 0, err);
  if (nreduce <= 0 || nseg == 0) return 0;
  if (attu_backend_interrupted(err)) return -1;
  int rc = guarded(err, [&] {
    context_t& ctx = CTX(be);
    std::vector<dspec_t> h((size_t)nreduce);
    for (int k = 0; k < nreduce; ++k) {
      const attu_reduce_spec& s = specs[k];
      h[k].op = s.op;
      h[k].fl = attu_type_mclass(s.in.type.id) == ATTU_MC_FLOAT;
      h[k].in_type = s.in.type.id;
      h[k].in = s.in.data ? s.in.data->ptr : nullptr;
      h[k].in_valid = s.in.valid ? static_cast<const uint8_t*>(s.in.valid->ptr) : nullptr;
      h[k].out_type = outs[k].type.id;
      h[k].out = outs[k].data->ptr;
      h[k].out_valid = outs[k].valid ? static_cast<uint8_t*>(outs[k].valid->ptr) : nullptr;
    }
    mem_t<dspec_t> ds = to_mem(h, ctx);
    mem_t<int> flag(1, ctx);
    flag.memset(0);
    const dspec_t* sp = ds.data();
    int* fl = flag.data();
    const int64_t* off = I64(offsets);
    const int64_t* pm = perm ? I64(perm) : nullptr;
    int nr = nreduce;
    transform([=] __device__(int s) {
      for (int k = 0; k < nr; ++k) reduce_segment(sp[k], pm, off[s], off[s + 1], s, fl);
    }, (int)nseg, ctx);
    int overflow = 0;
    dtoh(&overflow, fl, 1, ctx);
    if (overflow) {
      attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "bigint out of range");
      throw already_set_t();
    }
  });
  return rc;
}

int gpu_reduce(attu_backend* be, size_t n, int nreduce, const attu_reduce_spec* specs,
               attu_out* outs, attu_error* err) {
  if (nreduce > 64)
    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                          "too many aggregates in one query (at most 64)");
  return host_segreduce(be, nullptr, 1, nullptr, nreduce, specs, outs, true, n, err);
}

}  // namespace

void install_compute(attu_backend* be) {
  const char* e = getenv("ATTU_GPU_EVAL");
  IMPL(be)->device_eval = e && strcmp(e, "1") == 0;
  be->eval = gpu_eval;
  be->sort = gpu_sort;
  be->top_k = gpu_top_k;
  be->segment_heads = gpu_segment_heads;
  be->segreduce = gpu_segreduce;
  be->reduce = gpu_reduce;
  be->lbs_segreduce = gpu_lbs_segreduce;
  be->segmented_sort = gpu_segmented_sort;
  be->key_encode = gpu_key_encode;
}

}  // namespace gpu_backend
}  // namespace attu
