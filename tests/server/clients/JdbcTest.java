// JdbcTest.java - the PostgreSQL JDBC driver (pgjdbc) against attud, with
// the driver's default settings: what a Java application does on day one.
//
// Run by run_client_test.sh as a single source file (Java 11+):
//   java -cp /usr/share/java/postgresql.jar JdbcTest.java
// with ATTU_PORT set to a running attud (the real daemon, CPU device).
//
// pgjdbc speaks only the extended protocol. Its defaults exercise:
//   - unnamed statements with text results for the first executions,
//   - from the 5th execution of a PreparedStatement (prepareThreshold) a
//     named server-side statement, and Bind asking for BINARY results for
//     int2/int4/int8/float4/float8/numeric/date/timestamp columns,
//   - parameters sent in binary (setInt/setLong/setDouble) or as text
//     with a declared or unspecified type OID (setBigDecimal, setDate,
//     setTimestamp, setString),
//   - BEGIN sent ahead of the first statement when autocommit is off,
//     and named portals fetched fetchSize rows at a time (PortalSuspended),
//   - CancelRequest on a second socket for Statement.cancel() and
//     setQueryTimeout,
//   - COPY FROM STDIN / TO STDOUT through CopyManager.
// Every check compares against values computed here, so a wrong byte in a
// binary value fails the test.
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

import org.postgresql.PGConnection;
import org.postgresql.PGResultSetMetaData;
import org.postgresql.PGStatement;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

public class JdbcTest {
    static int checks = 0;

    static void check(boolean ok, String what) {
        checks++;
        if (!ok) throw new AssertionError(what);
    }

    static void eq(Object want, Object got, String what) {
        checks++;
        if (want == null ? got != null : !want.equals(got))
            throw new AssertionError(what + ": want <" + want + "> got <" + got + ">");
    }

    static String url() {
        return "jdbc:postgresql://127.0.0.1:" + System.getenv("ATTU_PORT") + "/attu";
    }

    static Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "attu");
        return DriverManager.getConnection(url(), p);
    }

    /** Runs body and returns the server's error; fails if none is raised. */
    interface SqlBody { void run() throws Exception; }

    static ServerErrorMessage expectError(String sqlstate, SqlBody body) throws Exception {
        try {
            body.run();
        } catch (PSQLException e) {
            eq(sqlstate, e.getSQLState(), "SQLSTATE of " + e.getMessage());
            return e.getServerErrorMessage();
        }
        throw new AssertionError("expected SQLSTATE " + sqlstate + ", got no error");
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        try (Connection c = connect()) {
            section("connect", t0);
            metadata(c);              section("metadata", t0);
            literalTypes(c);          section("types", t0);
            preparedInsertAndSelect(c); section("prepared", t0);
            batches(c);               section("batches", t0);
            transactions(c);          section("transactions", t0);
            fetchSize(c);             section("fetchSize", t0);
            errors(c);                section("errors", t0);
            cancel(c);                section("cancel", t0);
            copy(c);                  section("copy", t0);
        }
        System.out.println("jdbc: ok (" + checks + " checks)");
    }

    static void section(String name, long t0) {
        System.out.printf("jdbc: %-12s done at %6.2f s%n", name, (System.nanoTime() - t0) / 1e9);
    }

    // ---- connection and DatabaseMetaData ---------------------------------

    static void metadata(Connection c) throws Exception {
        DatabaseMetaData md = c.getMetaData();
        eq("PostgreSQL", md.getDatabaseProductName(), "product name");
        // server_version from ParameterStatus, no query needed
        check(md.getDatabaseProductVersion().startsWith("15"),
              "product version " + md.getDatabaseProductVersion());
        eq(15, md.getDatabaseMajorVersion(), "major version");
        check(c.isValid(5), "isValid");
        eq(true, c.getAutoCommit(), "autocommit by default");
        // pgjdbc prepares SHOW TRANSACTION ISOLATION LEVEL: Describe must
        // announce the row it returns
        eq(Connection.TRANSACTION_READ_COMMITTED, c.getTransactionIsolation(), "isolation level");
        try (PreparedStatement ps = c.prepareStatement("SHOW statement_timeout")) {
            for (int i = 0; i < 6; i++) {
                try (ResultSet rs = ps.executeQuery()) {
                    eq("statement_timeout", rs.getMetaData().getColumnName(1), "SHOW column");
                    check(rs.next(), "SHOW row");
                    eq("0", rs.getString(1), "SHOW value");
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN SELECT 1")) {
            try (ResultSet rs = ps.executeQuery()) {
                eq("QUERY PLAN", rs.getMetaData().getColumnName(1), "EXPLAIN column");
                check(rs.next() && rs.getString(1).length() > 0, "EXPLAIN rows");
            }
        }
        // getTables / getColumns / getSchemas read pg_catalog (attu's system
        // catalogs, planner/system_catalog.c).
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE jdbc_meta (id INTEGER NOT NULL, label VARCHAR(10), amount NUMERIC(8,2))");
        }
        eq("public", c.getSchema(), "getSchema");
        try (ResultSet rs = md.getTables(null, "public", "jdbc_%", new String[] { "TABLE" })) {
            check(rs.next(), "getTables row");
            eq("jdbc_meta", rs.getString("TABLE_NAME"), "getTables name");
            eq("TABLE", rs.getString("TABLE_TYPE"), "getTables type");
            check(!rs.next(), "getTables one row");
        }
        try (ResultSet rs = md.getColumns(null, "public", "jdbc_meta", "%")) {
            String[] names = { "id", "label", "amount" }, types = { "int4", "varchar", "numeric" };
            int[] sizes = { 10, 10, 8 }, nullable = { DatabaseMetaData.columnNoNulls, DatabaseMetaData.columnNullable,
                                                      DatabaseMetaData.columnNullable };
            for (int i = 0; i < 3; i++) {
                check(rs.next(), "getColumns row " + i);
                eq(names[i], rs.getString("COLUMN_NAME"), "getColumns name");
                eq(types[i], rs.getString("TYPE_NAME"), "getColumns type");
                eq(sizes[i], rs.getInt("COLUMN_SIZE"), "getColumns size of " + names[i]);
                eq(nullable[i], rs.getInt("NULLABLE"), "getColumns nullable of " + names[i]);
            }
            check(!rs.next(), "getColumns three rows");
        }
        try (ResultSet rs = md.getSchemas()) {
            int n = 0;
            while (rs.next()) n += rs.getString("TABLE_SCHEM").equals("public") ? 1 : 0;
            eq(1, n, "getSchemas lists public");
        }
        // getImportedKeys / getExportedKeys (pg_constraint's conkey / confkey
        // by generate_series): a two-column key, its order and rules
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE jdbc_par (a INTEGER, b INTEGER, PRIMARY KEY (a, b))");
            st.execute("CREATE TABLE jdbc_child (id INTEGER PRIMARY KEY, pa INTEGER, pb INTEGER, "
                       + "FOREIGN KEY (pa, pb) REFERENCES jdbc_par (a, b) ON DELETE CASCADE)");
        }
        for (int way = 0; way < 2; way++) {
            try (ResultSet rs = way == 0 ? md.getImportedKeys(null, "public", "jdbc_child")
                                         : md.getExportedKeys(null, "public", "jdbc_par")) {
                for (int k = 1; k <= 2; k++) {
                    check(rs.next(), "foreign key row " + k);
                    eq("jdbc_par", rs.getString("PKTABLE_NAME"), "PKTABLE_NAME");
                    eq(k == 1 ? "a" : "b", rs.getString("PKCOLUMN_NAME"), "PKCOLUMN_NAME");
                    eq("jdbc_child", rs.getString("FKTABLE_NAME"), "FKTABLE_NAME");
                    eq(k == 1 ? "pa" : "pb", rs.getString("FKCOLUMN_NAME"), "FKCOLUMN_NAME");
                    eq(k, rs.getInt("KEY_SEQ"), "KEY_SEQ");
                    eq(DatabaseMetaData.importedKeyCascade, rs.getInt("DELETE_RULE"), "DELETE_RULE");
                    eq("jdbc_child_pa_pb_fkey", rs.getString("FK_NAME"), "FK_NAME");
                    eq("jdbc_par_pkey", rs.getString("PK_NAME"), "PK_NAME");
                }
                check(!rs.next(), "two foreign key rows");
            }
        }
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE jdbc_child");
            st.execute("DROP TABLE jdbc_par");
        }
        // getPrimaryKeys and getIndexInfo (information_schema._pg_expandarray
        // in the select list, its fields read through a derived table, and
        // indoption[ORDINAL_POSITION - 1] of the 0-based int2vector)
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE jdbc_keys (a INTEGER, b TEXT, c INTEGER, PRIMARY KEY (b, a), UNIQUE (c))");
            st.execute("CREATE INDEX jdbc_keys_ca ON jdbc_keys (c DESC, a)");
        }
        try (ResultSet rs = md.getPrimaryKeys(null, "public", "jdbc_keys")) {
            for (String col : new String[] { "b", "a" }) {
                check(rs.next(), "getPrimaryKeys row " + col);
                eq(col, rs.getString("COLUMN_NAME"), "getPrimaryKeys column");
                eq(col.equals("b") ? 1 : 2, rs.getInt("KEY_SEQ"), "getPrimaryKeys KEY_SEQ of " + col);
                eq("jdbc_keys_pkey", rs.getString("PK_NAME"), "getPrimaryKeys PK_NAME");
            }
            check(!rs.next(), "getPrimaryKeys two rows");
        }
        try (ResultSet rs = md.getIndexInfo(null, "public", "jdbc_keys", false, false)) {
            // unique indexes first, then by type, name and position
            String[][] want = { { "false", "jdbc_keys_c_key", "1", "c", "A" }, { "false", "jdbc_keys_pkey", "1", "b", "A" },
                                { "false", "jdbc_keys_pkey", "2", "a", "A" }, { "true", "jdbc_keys_ca", "1", "c", "D" },
                                { "true", "jdbc_keys_ca", "2", "a", "A" } };
            for (String[] w : want) {
                check(rs.next(), "getIndexInfo row " + w[1] + " " + w[2]);
                eq(Boolean.parseBoolean(w[0]), rs.getBoolean("NON_UNIQUE"), "NON_UNIQUE of " + w[1]);
                eq(w[1], rs.getString("INDEX_NAME"), "INDEX_NAME");
                eq(Integer.parseInt(w[2]), rs.getInt("ORDINAL_POSITION"), "ORDINAL_POSITION of " + w[1]);
                eq(w[3], rs.getString("COLUMN_NAME"), "COLUMN_NAME of " + w[1] + " " + w[2]);
                eq(w[4], rs.getString("ASC_OR_DESC"), "ASC_OR_DESC of " + w[1] + " " + w[2]);
            }
            check(!rs.next(), "getIndexInfo five rows");
        }
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE jdbc_keys");
        }
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE jdbc_meta");
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            check(rs.next() && rs.getInt(1) == 1, "usable after the catalog error");
        }
    }

    // ---- Statement.executeQuery: every type, and ResultSetMetaData -------

    static void literalTypes(Connection c) throws Exception {
        String sql = "SELECT 7 AS i, CAST(9000000000 AS BIGINT) AS b, CAST(2.5 AS DOUBLE PRECISION) AS d,"
                   + " CAST(-12.34 AS NUMERIC(10,2)) AS n, 'h\u00e9llo' AS t, DATE '2024-02-29' AS dt,"
                   + " TIMESTAMP '2024-02-29 12:34:56.789' AS ts, true AS bo, CAST(NULL AS INTEGER) AS nul,"
                   + " CAST(1.25 AS REAL) AS r, CAST(-300 AS SMALLINT) AS s";
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            eq(11, md.getColumnCount(), "column count");
            String[] names = {"i", "b", "d", "n", "t", "dt", "ts", "bo", "nul", "r", "s"};
            int[] types = {Types.INTEGER, Types.BIGINT, Types.DOUBLE, Types.NUMERIC, Types.VARCHAR,
                           Types.DATE, Types.TIMESTAMP, Types.BIT, Types.INTEGER, Types.REAL, Types.SMALLINT};
            String[] typeNames = {"int4", "int8", "float8", "numeric", "text", "date", "timestamp",
                                  "bool", "int4", "float4", "int2"};
            for (int i = 0; i < names.length; i++) {
                eq(names[i], md.getColumnName(i + 1), "column name " + (i + 1));
                eq(names[i], md.getColumnLabel(i + 1), "column label " + (i + 1));
                eq(types[i], md.getColumnType(i + 1), "java.sql.Types of " + names[i]);
                eq(typeNames[i], md.getColumnTypeName(i + 1), "type name of " + names[i]);
            }
            eq(10, md.getPrecision(4), "numeric precision");
            eq(2, md.getScale(4), "numeric scale");
            eq("java.math.BigDecimal", md.getColumnClassName(4), "numeric class");
            check(rs.next(), "one row");
            eq(7, rs.getInt("i"), "int");
            eq(9000000000L, rs.getLong("b"), "bigint");
            eq(2.5, rs.getDouble("d"), "double");
            eq(new BigDecimal("-12.34"), rs.getBigDecimal("n"), "numeric");
            eq("h\u00e9llo", rs.getString("t"), "text (UTF-8)");
            eq(Date.valueOf("2024-02-29"), rs.getDate("dt"), "date");
            eq(Timestamp.valueOf("2024-02-29 12:34:56.789"), rs.getTimestamp("ts"), "timestamp");
            eq(true, rs.getBoolean("bo"), "boolean");
            eq(0, rs.getInt("nul"), "NULL int reads as 0");
            check(rs.wasNull(), "wasNull after a NULL");
            eq(null, rs.getObject("nul"), "NULL object");
            eq(1.25f, rs.getFloat("r"), "real");
            eq((short) -300, rs.getShort("s"), "smallint");
            check(!rs.next(), "only one row");
        }
        // An empty result still describes its columns.
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT CAST(1 AS BIGINT) AS x WHERE 1 = 0")) {
            eq(Types.BIGINT, rs.getMetaData().getColumnType(1), "empty result type");
            check(!rs.next(), "empty result");
        }
        // char(n) is bpchar (OID 1042, typmod n + 4): java.sql.Types.CHAR,
        // its length the precision, its value padded to n
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT CAST('ab' AS CHAR(4)) AS c, CAST('ab' AS CHAR(4)) || '|' AS t")) {
            ResultSetMetaData md = rs.getMetaData();
            eq(Types.CHAR, md.getColumnType(1), "char(n) type");
            eq("bpchar", md.getColumnTypeName(1), "char(n) type name");
            eq(4, md.getPrecision(1), "char(n) precision");
            check(rs.next(), "char(n) row");
            eq("ab  ", rs.getString(1), "char(n) padded");
            eq("ab|", rs.getString(2), "char(n) || text reads it unpadded");
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT CAST('ab' AS CHAR(4)) = ?")) {
            ps.setString(1, "ab");
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next() && rs.getBoolean(1), "char(n) = a string parameter, without the padding");
            }
        }
        // varchar(n) is character varying (OID 1043, typmod n + 4):
        // java.sql.Types.VARCHAR named varchar with its length as precision;
        // varchar || text is text
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT CAST('ab' AS VARCHAR(5)) AS v, CAST('ab ' AS VARCHAR) AS u, "
                                            + "CAST('ab' AS VARCHAR(5)) || '|' AS t")) {
            ResultSetMetaData md = rs.getMetaData();
            eq(Types.VARCHAR, md.getColumnType(1), "varchar(n) type");
            eq("varchar", md.getColumnTypeName(1), "varchar(n) type name");
            eq(5, md.getPrecision(1), "varchar(n) precision");
            eq("varchar", md.getColumnTypeName(2), "varchar type name");
            eq("text", md.getColumnTypeName(3), "varchar || text type name");
            check(rs.next(), "varchar row");
            eq("ab ", rs.getString(2), "varchar keeps its trailing blanks");
        }
        // setString sends a varchar (OID 1043), which meets a char(n) as
        // bpchar: a value ending in blanks equals the padded char(n), as
        // on PostgreSQL; against a varchar its blanks count
        try (PreparedStatement ps = c.prepareStatement("SELECT CAST('ab' AS CHAR(4)) = ?, CAST('ab' AS VARCHAR(5)) = ?")) {
            ps.setString(1, "ab  ");
            ps.setString(2, "ab  ");
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next(), "varchar parameter row");
                check(rs.getBoolean(1), "char(n) = a string parameter ending in blanks");
                check(!rs.getBoolean(2), "varchar(n) = a string parameter ending in blanks");
            }
        }
    }

    // ---- PreparedStatement: parameters of every type, past prepareThreshold

    static final int ROWS = 12;   // > prepareThreshold (5): named statements, binary results

    static BigDecimal price(int i) { return new BigDecimal(i * 1013 - 5000).movePointLeft(2); }
    static long big(int i) { return (long) i * 3_000_000_007L - 10_000_000_000L; }
    static Date day(int i) { return Date.valueOf(java.time.LocalDate.of(1999, 12, 25).plusDays(i * 3)); }
    static Timestamp at(int i) {
        return Timestamp.valueOf(java.time.LocalDateTime.of(1969, 12, 31, 23, 59, 59, 0)
                                 .plusSeconds(i * 86_399L).plusNanos(i * 123_456_000L));
    }
    static double score(int i) { return i / 8.0 - 0.1; }

    static void preparedInsertAndSelect(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            eq(0, st.executeUpdate("CREATE TABLE items (id INTEGER, big BIGINT, price NUMERIC(12,2),"
                                   + " name TEXT, day DATE, at TIMESTAMP, ok BOOLEAN, score DOUBLE PRECISION,"
                                   + " ratio REAL, small SMALLINT)"),
               "CREATE TABLE count");
        }
        try (PreparedStatement ps = c.prepareStatement(
                 "INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < ROWS; i++) {
                ps.setInt(1, i);
                ps.setLong(2, big(i));
                ps.setBigDecimal(3, price(i));
                if (i % 4 == 3) ps.setNull(4, Types.VARCHAR); else ps.setString(4, "item '" + i + "'");
                // both ways a Java program passes a date: setDate sends it
                // as "1999-12-25 +00" (the zone is ignored, as PostgreSQL
                // does), setObject(LocalDate) as a plain date
                if (i % 2 == 0) ps.setDate(5, day(i));
                else ps.setObject(5, day(i).toLocalDate());
                ps.setTimestamp(6, at(i));
                ps.setBoolean(7, i % 2 == 0);
                ps.setDouble(8, score(i));
                ps.setFloat(9, i / 4.0f);
                ps.setShort(10, (short) (i - 6));
                eq(1, ps.executeUpdate(), "INSERT count, execution " + i);
            }
            check(ps.unwrap(PGStatement.class).isUseServerPrepare(),
                  "INSERT became a named server-side statement");
        }
        try (PreparedStatement ps = c.prepareStatement(
                 "SELECT id, big, price, name, day, at, ok, score, ratio, small, price * 2 AS doubled,"
                 + " CAST(NULL AS NUMERIC(5,1)) AS nn FROM items WHERE id = ?")) {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < ROWS; i++) {
                    ps.setInt(1, i);
                    try (ResultSet rs = ps.executeQuery()) {
                        check(rs.next(), "row " + i);
                        eq(i, rs.getInt(1), "id");
                        eq(big(i), rs.getLong(2), "bigint " + i);
                        eq(price(i), rs.getBigDecimal(3), "numeric " + i);
                        eq(i % 4 == 3 ? null : "item '" + i + "'", rs.getString(4), "text " + i);
                        eq(day(i), rs.getDate(5), "date " + i);
                        eq(at(i), rs.getTimestamp(6), "timestamp " + i);
                        eq(i % 2 == 0, rs.getBoolean(7), "boolean " + i);
                        eq(score(i), rs.getDouble(8), "double " + i);
                        eq(i / 4.0f, rs.getFloat(9), "real " + i);
                        eq(i - 6, rs.getInt(10), "smallint " + i);
                        eq(price(i).multiply(new BigDecimal(2)), rs.getBigDecimal(11), "numeric expr " + i);
                        eq(null, rs.getBigDecimal(12), "NULL numeric");
                        check(!rs.next(), "one row for id " + i);
                        PGResultSetMetaData pmd = rs.getMetaData().unwrap(PGResultSetMetaData.class);
                        if (round == 1) {
                            // pgjdbc now binds with binary result formats for these
                            for (int col : new int[] {1, 2, 3, 5, 6, 8, 9, 10, 11})
                                eq(1, pmd.getFormat(col), "binary transfer of column " + col);
                            eq(0, pmd.getFormat(4), "text stays text");
                        }
                    }
                }
            }
        }
        // Numerics whose binary form needs care: zero, negatives, digit
        // groups around the point, big and tiny magnitudes. A plain
        // Statement reads them in text, the prepared statement (past the
        // threshold) in binary: both must give the same BigDecimal, scale
        // included.
        String[] nums = {"0", "0.00", "-0.01", "1", "-1", "10000", "9999.9999", "12345678.9",
                         "-99999999999999.9999", "0.0001", "100000000", "123456789012345678",
                         "0.000000000000000001", "-1000.5", "20000.0002", "1.10"};
        BigDecimal[] asText = new BigDecimal[nums.length];
        try (Statement st = c.createStatement()) {
            for (int k = 0; k < nums.length; k++) {
                try (ResultSet rs = st.executeQuery("SELECT CAST('" + nums[k] + "' AS NUMERIC)")) {
                    check(rs.next(), "numeric literal row");
                    eq(0, rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(1), "Statement: text");
                    asText[k] = rs.getBigDecimal(1);
                    check(new BigDecimal(nums[k]).compareTo(asText[k]) == 0,
                          "numeric " + nums[k] + " read back as " + asText[k]);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT CAST(? AS NUMERIC) AS b")) {
            for (int round = 0; round < 7; round++) {
                for (int k = 0; k < nums.length; k++) {
                    ps.setBigDecimal(1, new BigDecimal(nums[k]));   // sent in binary
                    try (ResultSet rs = ps.executeQuery()) {
                        check(rs.next(), "numeric row");
                        int format = rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(1);
                        eq(asText[k], rs.getBigDecimal(1), "numeric " + nums[k] + " in format " + format);
                        if (round == 6) eq(1, format, "numeric in binary after the threshold");
                    }
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*), sum(price), min(day), max(at) FROM items")) {
            for (int i = 0; i < 7; i++) {
                try (ResultSet rs = ps.executeQuery()) {
                    check(rs.next(), "aggregate row");
                    eq((long) ROWS, rs.getLong(1), "count(*)");
                    BigDecimal sum = BigDecimal.ZERO.setScale(2);
                    for (int k = 0; k < ROWS; k++) sum = sum.add(price(k));
                    eq(sum, rs.getBigDecimal(2), "sum(numeric)");
                    eq(day(0), rs.getDate(3), "min(date)");
                    eq(at(ROWS - 1), rs.getTimestamp(4), "max(timestamp)");
                }
            }
        }
    }

    // ---- batches --------------------------------------------------------

    static void batches(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE nums (n INTEGER, label TEXT)");
            st.addBatch("INSERT INTO nums VALUES (-1, 'a')");
            st.addBatch("INSERT INTO nums VALUES (-2, 'b'), (-3, 'c')");
            int[] counts = st.executeBatch();
            eq("[1, 2]", Arrays.toString(counts), "Statement batch counts");
        }
        // Each INSERT is a durable table write in attu, so the batch is kept
        // small; the rest of the rows go in with one multi-row INSERT.
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO nums VALUES (?, ?)")) {
            for (int i = 0; i < 30; i++) {
                ps.setInt(1, i);
                ps.setString(2, "n" + i);
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            eq(30, counts.length, "batch length");
            for (int n : counts) check(n == 1 || n == Statement.SUCCESS_NO_INFO, "batch count " + n);
        }
        try (Statement st = c.createStatement()) {
            StringBuilder sb = new StringBuilder("INSERT INTO nums VALUES ");
            for (int i = 30; i < 200; i++) sb.append(i > 30 ? ", " : "").append("(" + i + ", 'n" + i + "')");
            eq(170, st.executeUpdate(sb.toString()), "multi-row INSERT count");
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), sum(n) FROM nums")) {
            check(rs.next(), "count row");
            eq(203L, rs.getLong(1), "rows after batches");
            eq((long) (199 * 200 / 2 - 6), rs.getLong(2), "sum after batches");
        }
        // A failing batch reports BatchUpdateException with the server's
        // error, and nothing of it stays: the driver sends the whole batch
        // before one Sync, one implicit transaction (a good row before the
        // bad one is undone, as in PostgreSQL).
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO nums VALUES (?, 'x')")) {
            ps.setInt(1, 1);
            ps.addBatch();
            ps.setObject(1, "not a number", Types.OTHER);
            ps.addBatch();
            ps.executeBatch();
            throw new AssertionError("bad batch accepted");
        } catch (BatchUpdateException e) {
            check(e.getNextException() != null || e.getSQLState() != null, "batch error has a cause");
            String state = e.getNextException() != null ? e.getNextException().getSQLState() : e.getSQLState();
            eq("22P02", state, "batch error SQLSTATE");
        }
        eq(203L, count(c, "nums"), "a failed batch leaves no row");
    }

    // ---- transactions ---------------------------------------------------

    static long count(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static void transactions(Connection c) throws Exception {
        long before = count(c, "nums");
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO nums VALUES (?, 'txn')")) {
            ps.setInt(1, 1000);
            eq(1, ps.executeUpdate(), "insert in a transaction");
        }
        c.commit();
        eq(before + 1, count(c, "nums"), "committed row visible");
        c.commit();
        // rollback() undoes the transaction's rows; a savepoint undoes what
        // came after it
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            check(rs.next(), "select in a transaction");
        }
        try (Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO nums VALUES (1001, 'undone')");
        }
        c.rollback();
        eq(before + 1, count(c, "nums"), "rollback undoes the insert");
        try (Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO nums VALUES (1002, 'kept')");
            Savepoint sp = c.setSavepoint();
            st.executeUpdate("INSERT INTO nums VALUES (1003, 'undone')");
            c.rollback(sp);
            c.releaseSavepoint(sp);
        }
        c.commit();
        eq(before + 2, count(c, "nums"), "rollback to a savepoint keeps what came before it");
        try (Statement st = c.createStatement()) {
            st.executeUpdate("DELETE FROM nums WHERE n = 1002");
        }
        c.commit();
        // An error aborts the block: 25P02 until rollback, then all is well.
        expectError("42P01", () -> count(c, "no_such_table"));
        expectError("25P02", () -> count(c, "nums"));
        c.rollback();
        eq(before + 1, count(c, "nums"), "usable after rollback");
        c.setAutoCommit(true);
        eq(before + 1, count(c, "nums"), "autocommit again");
        // RETURN_GENERATED_KEYS: the driver appends RETURNING *
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE jdbc_gen (id SERIAL PRIMARY KEY, v INTEGER)");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO jdbc_gen (v) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 1; i <= 2; i++) {
                ps.setInt(1, 10 * i);
                eq(1, ps.executeUpdate(), "insert with generated keys");
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    check(rs.next(), "a generated key");
                    eq(i, rs.getInt("id"), "generated id");
                    eq(10 * i, rs.getInt("v"), "generated row's v");
                }
            }
        }
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE jdbc_gen");
        }
    }

    // ---- setFetchSize: named portals, Execute with a row limit ----------

    static void fetchSize(Connection c) throws Exception {
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.setFetchSize(7);
            try (ResultSet rs = st.executeQuery("SELECT n, label FROM nums WHERE n >= 0 ORDER BY n")) {
                int want = 0;
                while (rs.next()) {
                    if (want == 200) { eq(1000, rs.getInt(1), "last row"); want++; continue; }
                    eq(want, rs.getInt(1), "fetched row");
                    eq("n" + want, rs.getString(2), "fetched label");
                    want++;
                }
                eq(201, want, "rows fetched 7 at a time");
            }
            // Two portals open at once, read alternately.
            st.setFetchSize(3);
            try (Statement st2 = c.createStatement()) {
                st2.setFetchSize(4);
                ResultSet a = st.executeQuery("SELECT n FROM nums WHERE n BETWEEN 0 AND 19 ORDER BY n");
                ResultSet b = st2.executeQuery("SELECT n FROM nums WHERE n BETWEEN 100 AND 119 ORDER BY n DESC");
                for (int i = 0; i < 20; i++) {
                    check(a.next() && b.next(), "interleaved rows " + i);
                    eq(i, a.getInt(1), "portal a");
                    eq(119 - i, b.getInt(1), "portal b");
                }
                check(!a.next() && !b.next(), "both portals done");
                a.close();
                b.close();
            }
        }
        // A prepared statement past the threshold, paged, with binary rows.
        try (PreparedStatement ps = c.prepareStatement("SELECT n, CAST(n AS NUMERIC(8,1)) / 4 AS q FROM nums"
                                                       + " WHERE n >= ? AND n < 100 ORDER BY n")) {
            ps.setFetchSize(16);
            for (int round = 0; round < 7; round++) {
                ps.setInt(1, round);
                try (ResultSet rs = ps.executeQuery()) {
                    int want = round;
                    while (rs.next()) {
                        eq(want, rs.getInt(1), "paged prepared row");
                        check(new BigDecimal(want).divide(new BigDecimal(4)).compareTo(rs.getBigDecimal(2)) == 0,
                              "paged numeric " + rs.getBigDecimal(2));
                        want++;
                    }
                    eq(100, want, "paged prepared rows");
                }
            }
        }
        c.commit();
        c.setAutoCommit(true);
        // setMaxRows: one Execute with a row limit, the portal then closed
        try (Statement st = c.createStatement()) {
            st.setMaxRows(5);
            try (ResultSet rs = st.executeQuery("SELECT n FROM nums WHERE n >= 0 ORDER BY n")) {
                int k = 0;
                while (rs.next()) eq(k++, rs.getInt(1), "maxRows row");
                eq(5, k, "setMaxRows(5)");
            }
        }
        // getMetaData() before executing: Parse + Describe statement only
        try (PreparedStatement ps = c.prepareStatement("SELECT n, label FROM nums WHERE n = ?")) {
            ResultSetMetaData md = ps.getMetaData();
            eq(2, md.getColumnCount(), "described columns");
            eq(Types.INTEGER, md.getColumnType(1), "described type");
            eq("label", md.getColumnName(2), "described name");
            eq(1, ps.getParameterMetaData().getParameterCount(), "parameter count");
            // the type the server inferred from `n = ?`, as PostgreSQL names it
            eq(Types.INTEGER, ps.getParameterMetaData().getParameterType(1), "inferred parameter type");
            eq("int4", ps.getParameterMetaData().getParameterTypeName(1), "inferred parameter type name");
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT n FROM nums WHERE label = ? LIMIT ?")) {
            java.sql.ParameterMetaData pm = ps.getParameterMetaData();
            eq("text", pm.getParameterTypeName(1), "inferred text parameter");
            eq("int8", pm.getParameterTypeName(2), "inferred LIMIT parameter");
        }
    }

    // ---- errors: SQLSTATE, message, position -----------------------------

    static void errors(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            ServerErrorMessage m = expectError("42601", () -> st.executeQuery("SELEC 1"));
            eq(1, m.getPosition(), "syntax error position");
            eq("ERROR", m.getSeverity(), "severity");
            m = expectError("42703", () -> st.executeQuery("SELECT id, nosuch FROM items"));
            eq(12, m.getPosition(), "undefined column position");
            check(m.getMessage().contains("nosuch"), "message names the column: " + m.getMessage());
            expectError("42P01", () -> st.executeQuery("SELECT * FROM missing_table"));
            expectError("22012", () -> st.executeQuery("SELECT 1 / (id - id) FROM items"));
            expectError("42P07", () -> st.executeUpdate("CREATE TABLE items (x INTEGER)"));
            try (ResultSet rs = st.executeQuery("SELECT 1")) {
                check(rs.next(), "usable after errors");
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM items WHERE id = ?")) {
            ps.setObject(1, "seven", Types.OTHER);   // an untyped parameter
            expectError("22P02", ps::executeQuery);
        }
    }

    // ---- cancel and query timeout ----------------------------------------

    // A cross join that runs for minutes unless stopped.
    // Long-running and cancellable without ever being refused: 27M rows of
    // two md5 calls each (seconds on any machine; the server checks for a
    // cancel between batches). A four-way cross join of the same table was
    // refused (53200, 8.1e9 pairs) after about 0.9 s, before a 1 s
    // timeout could fire on a loaded machine.
    static final String SLOW = "SELECT count(*) FROM slow a, slow b, slow c "
        + "WHERE md5(md5(a.x::text || b.x::text || c.x::text)) = 'x'";

    static void cancel(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE slow (x INTEGER)");
            StringBuilder sb = new StringBuilder("INSERT INTO slow VALUES (0)");
            for (int i = 1; i < 300; i++) sb.append(", (").append(i).append(')');
            eq(300, st.executeUpdate(sb.toString()), "slow rows");
        }
        try (Statement st = c.createStatement()) {
            Thread canceller = new Thread(() -> {
                try {
                    Thread.sleep(500);
                    st.cancel();
                } catch (Exception e) {
                    e.printStackTrace();
                }
            });
            long t0 = System.nanoTime();
            canceller.start();
            ServerErrorMessage m = expectError("57014", () -> st.executeQuery(SLOW));
            canceller.join();
            double secs = (System.nanoTime() - t0) / 1e9;
            check(secs < 30, "cancel took " + secs + " s");
            check(m.getMessage().contains("user request"), "cancel message: " + m.getMessage());
        }
        try (Statement st = c.createStatement()) {
            st.setQueryTimeout(1);
            long t0 = System.nanoTime();
            expectError("57014", () -> st.executeQuery(SLOW));
            double secs = (System.nanoTime() - t0) / 1e9;
            check(secs >= 0.9 && secs < 30, "query timeout after " + secs + " s");
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM slow")) {
            check(rs.next(), "usable after cancel");
            eq(300L, rs.getLong(1), "slow count");
        }
    }

    // ---- COPY through CopyManager -----------------------------------------

    static void copy(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE copied (id INTEGER, name TEXT, amount NUMERIC(10,2), day DATE)");
        }
        CopyManager cm = c.unwrap(PGConnection.class).getCopyAPI();
        StringBuilder in = new StringBuilder();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            String line = i + ",\"name, " + i + "\"," + (i * 7) + ".25,2024-01-" + String.format("%02d", i % 28 + 1);
            lines.add(line);
            in.append(line).append('\n');
        }
        eq(500L, cm.copyIn("COPY copied FROM STDIN WITH (FORMAT csv)", new StringReader(in.toString())),
           "copyIn count");
        StringWriter out = new StringWriter();
        eq(500L, cm.copyOut("COPY copied TO STDOUT WITH (FORMAT csv)", out), "copyOut count");
        List<String> got = new ArrayList<>(Arrays.asList(out.toString().split("\n")));
        Collections.sort(got);
        Collections.sort(lines);
        eq(lines, got, "COPY round trip");
        // Bad data: the whole COPY fails with its SQLSTATE, nothing is applied.
        expectError("22P02", () -> cm.copyIn("COPY copied FROM STDIN WITH (FORMAT csv)",
                                             new StringReader("1,a,1.00,2024-01-01\nx,b,2.00,2024-01-02\n")));
        eq(500L, count(c, "copied"), "failed COPY applied nothing");
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT sum(amount) FROM copied")) {
            check(rs.next(), "sum row");
            eq(new BigDecimal("873375.00"), rs.getBigDecimal(1), "sum of copied amounts");
        }
    }
}
