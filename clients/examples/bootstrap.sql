-- Run by attud --bootstrap on the first start of an empty data directory:
-- loads the cities demo's input (data/statecity.csv) as table `cities`.
CREATE TABLE cities (
    state      TEXT,
    state_fips INTEGER,
    name       TEXT,
    city_fips  INTEGER,
    gnis       INTEGER,
    type       TEXT,
    lat        DOUBLE PRECISION,
    lon        DOUBLE PRECISION
);
COPY cities FROM 'statecity.csv' WITH (FORMAT csv, HEADER true);
