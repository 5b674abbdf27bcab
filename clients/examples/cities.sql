-- The cities remoteness question (the moderngpu cities demo, in SQL).
--
-- For every place, find its three nearest places in the same state by
-- great-circle distance; per state, report the most remote place: the one
-- whose 3rd-nearest neighbour is farthest away, with its three nearest
-- neighbours and their distances in miles. States in FIPS order. A state
-- with a single place (DC) has no neighbours.
--
-- attu runs the self-join + GROUP BY a.rowid as ONE lbs_segreduce: for each
-- place (segment) it expands the places of its state (work items), computes
-- earth_distance per pair and keeps the 3 smallest, without materializing
-- the ~25 million pairs. The per-state ranking is a window, and
-- WHERE rn = 1 lets it take each state's first row by d3 without
-- numbering every row (partition_first). See docs/cities.md.
WITH nearest AS (
    SELECT a.state_fips, a.state, a.name,
           nth_smallest_arg(b.name, earth_distance(a.lat, a.lon, b.lat, b.lon), 1) AS n1,
           nth_smallest(earth_distance(a.lat, a.lon, b.lat, b.lon), 1)             AS d1,
           nth_smallest_arg(b.name, earth_distance(a.lat, a.lon, b.lat, b.lon), 2) AS n2,
           nth_smallest(earth_distance(a.lat, a.lon, b.lat, b.lon), 2)             AS d2,
           nth_smallest_arg(b.name, earth_distance(a.lat, a.lon, b.lat, b.lon), 3) AS n3,
           nth_smallest(earth_distance(a.lat, a.lon, b.lat, b.lon), 3)             AS d3
    FROM cities a
    LEFT JOIN cities b ON b.state = a.state AND b.rowid <> a.rowid
    GROUP BY a.rowid
), ranked AS (
    SELECT *, row_number() OVER (PARTITION BY state ORDER BY d3 DESC NULLS LAST) AS rn
    FROM nearest
)
SELECT state, name,
       n1, round(d1::numeric, 2) AS d1,
       n2, round(d2::numeric, 2) AS d2,
       n3, round(d3::numeric, 2) AS d3
FROM ranked
WHERE rn = 1
ORDER BY state_fips;
