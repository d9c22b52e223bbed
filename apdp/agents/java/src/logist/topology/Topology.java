package logist.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A road network: cities (in the order of the network's file, which is their {@code id}) and
 * roads. Distances are kept in integer units of km x 1000, shortest paths over all pairs are
 * computed once, on units.
 */
public class Topology implements Iterable<Topology.City> {

    /** A city of the network; one object per city. */
    public static class City {
        /** The city's index in the network (0-based, file order). */
        public final int id;
        /** The city's name. */
        public final String name;
        /** Where the city is drawn. */
        public final int xPos;
        /** Where the city is drawn. */
        public final int yPos;

        private final Topology topology;
        private final List<City> neighbors = new ArrayList<>();

        City(Topology topology, int id, String name, int xPos, int yPos) {
            this.topology = topology;
            this.id = id;
            this.name = name;
            this.xPos = xPos;
            this.yPos = yPos;
        }

        /** The cities one road away, in the order of the network's roads. */
        public List<City> neighbors() {
            return Collections.unmodifiableList(neighbors);
        }

        /** Whether a road joins this city and {@code other}. */
        public boolean hasNeighbor(City other) {
            return neighbors.contains(other);
        }

        /** A neighbour drawn with {@code random}. */
        public City randomNeighbor(Random random) {
            return neighbors.get(random.nextInt(neighbors.size()));
        }

        /** The shortest distance to {@code other} in units (km x 1000). */
        public long distanceUnitsTo(City other) {
            return topology.units[id][other.id];
        }

        /** The shortest distance to {@code other} in km. */
        public double distanceTo(City other) {
            return topology.units[id][other.id] / 1000.0;
        }

        /**
         * The cities after this one up to and including {@code destination} along a shortest
         * path (empty for this city itself).
         */
        public List<City> pathTo(City destination) {
            int[] previous = topology.previous[id];
            List<City> path = new ArrayList<>();
            for (int c = destination.id; c != id; c = previous[c]) {
                if (c < 0) {
                    throw new IllegalArgumentException("no road leads from " + name + " to " + destination);
                }
                path.add(topology.cities.get(c));
            }
            Collections.reverse(path);
            return path;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof City && ((City) other).id == id && ((City) other).topology == topology;
        }

        @Override
        public int hashCode() {
            return id;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Queue entries {distance, city} by distance, then city (a class, not a lambda: faster to start). */
    private static final class ByDistance implements Comparator<long[]> {
        static final ByDistance INSTANCE = new ByDistance();

        @Override
        public int compare(long[] a, long[] b) {
            return a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]);
        }
    }

    private final String name;
    private final List<City> cities = new ArrayList<>();
    private final long[][] units;
    private final int[][] previous;

    /**
     * A network of cities {@code names} drawn at ({@code x}, {@code y}) with roads {@code from[k]}
     * to {@code to[k]} (city indices) of {@code km[k]} km each.
     */
    public Topology(String name, String[] names, int[] x, int[] y, int[] from, int[] to, double[] km) {
        this.name = name;
        int n = names.length;
        for (int i = 0; i < n; i++) {
            cities.add(new City(this, i, names[i], x[i], y[i]));
        }
        long[][] road = new long[n][n];
        for (long[] row : road) {
            Arrays.fill(row, -1);
        }
        for (int k = 0; k < from.length; k++) {
            long length = Math.round(km[k] * 1000.0);
            City a = cities.get(from[k]);
            City b = cities.get(to[k]);
            if (road[a.id][b.id] < 0) {
                a.neighbors.add(b);
                b.neighbors.add(a);
            }
            if (road[a.id][b.id] < 0 || length < road[a.id][b.id]) {
                road[a.id][b.id] = length;
                road[b.id][a.id] = length;
            }
        }
        units = new long[n][];
        previous = new int[n][];
        for (int s = 0; s < n; s++) {
            shortestPathsFrom(s, road);
        }
    }

    private void shortestPathsFrom(int source, long[][] road) {
        int n = cities.size();
        long[] dist = new long[n];
        int[] prev = new int[n];
        Arrays.fill(dist, Long.MAX_VALUE);
        Arrays.fill(prev, -1);
        dist[source] = 0;
        prev[source] = source;
        PriorityQueue<long[]> queue = new PriorityQueue<>(ByDistance.INSTANCE);
        queue.add(new long[] {0, source});
        boolean[] done = new boolean[n];
        while (!queue.isEmpty()) {
            int c = (int) queue.poll()[1];
            if (done[c]) {
                continue;
            }
            done[c] = true;
            for (City next : cities.get(c).neighbors) {
                long d = dist[c] + road[c][next.id];
                if (d < dist[next.id]) {
                    dist[next.id] = d;
                    prev[next.id] = c;
                    queue.add(new long[] {d, next.id});
                }
            }
        }
        units[source] = dist;
        previous[source] = prev;
    }

    /** The cities, in the network's order. */
    public List<City> cities() {
        return Collections.unmodifiableList(cities);
    }

    /** The number of cities. */
    public int size() {
        return cities.size();
    }

    /** A city drawn with {@code random}. */
    public City randomCity(Random random) {
        return cities.get(random.nextInt(cities.size()));
    }

    /** The city called {@code name}. */
    public City parseCity(String name) {
        for (City city : cities) {
            if (city.name.equals(name)) {
                return city;
            }
        }
        throw new IllegalArgumentException("no city named " + name + " in " + this.name);
    }

    @Override
    public Iterator<City> iterator() {
        return cities().iterator();
    }

    @Override
    public String toString() {
        return name;
    }
}
