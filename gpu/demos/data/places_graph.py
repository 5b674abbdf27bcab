#!/usr/bin/env python3
"""Writes a Matrix Market graph of US census places for the bfs demos.

usage: places_graph.py Gaz_places_national.txt OUT.mtx [MILES]

Vertices are the places of the Census 2010 Gazetteer (tab-separated,
Latin-1; ../shared/data/Gaz_places_national.txt); an undirected edge joins
two places whose internal points lie within MILES (default 10) great-circle
miles of each other (haversine, earth radius 3958.76 miles, as the cities
demo). The file is `coordinate pattern symmetric`: one triangle, 1-based.
A real, sparse, many-component graph, unlike the generated power-law one.
"""
import math
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    miles = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
    pts = []
    with open(src, encoding="latin-1") as f:
        head = f.readline().rstrip("\n").split("\t")
        ilat, ilon = head.index("INTPTLAT"), head.index("INTPTLONG")
        for line in f:
            c = line.rstrip("\n").split("\t")
            pts.append((math.radians(float(c[ilat])), math.radians(float(c[ilon].strip()))))
    # buckets of about `miles` by latitude and longitude
    cell = miles / 3958.76

    def width(row):  # longitude width of a bucket in latitude row `row`
        return cell / max(math.cos((row + 0.5) * cell), 0.05)

    grid = {}
    for i, (la, lo) in enumerate(pts):
        row = int(la // cell)
        grid.setdefault((row, int(lo // width(row))), []).append(i)
    edges = set()
    for i, (la, lo) in enumerate(pts):
        gy = int(la // cell)
        for dy in (-1, 0, 1):
            gx = int(lo // width(gy + dy))
            for dx in (-2, -1, 0, 1, 2):
                for j in grid.get((gy + dy, gx + dx), ()):
                    if j <= i:
                        continue
                    lb, ob = pts[j]
                    a = math.sin((lb - la) / 2) ** 2 + math.cos(la) * math.cos(lb) * math.sin((ob - lo) / 2) ** 2
                    if 2 * math.asin(math.sqrt(min(a, 1.0))) * 3958.76 <= miles:
                        edges.add((j, i))
    with open(out, "w") as f:
        f.write("%%MatrixMarket matrix coordinate pattern symmetric\n")
        f.write("%% US census places (Census 2010 Gazetteer) within %g miles of each other\n" % miles)
        f.write("%d %d %d\n" % (len(pts), len(pts), len(edges)))
        for j, i in sorted(edges):
            f.write("%d %d\n" % (j + 1, i + 1))
    print("%s: %d vertices, %d undirected edges" % (out, len(pts), len(edges)))


if __name__ == "__main__":
    main()
