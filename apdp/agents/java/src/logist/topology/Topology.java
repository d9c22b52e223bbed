package logist.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;

import apdp.host.Hooks;

/**
 * A road network: cities (in the order of the network's file, which is their {@code id}) and
 * roads. Distances are kept in whole units of km x 1000; shortest paths over all pairs are computed
 * once, on units, when the network is built ({@link Builder}).
 */
public class Topology implements Iterable<Topology.City> {

    static {
        Hooks.register(Hooks.Topologies.class, new Hooks.Topologies() { // not a lambda: faster to start
            @Override
            public void name(Topology topology, String name) {
                topology.name = name;
            }
        });
    }

    /** A city of the network; one object per city. Iterating over a city visits its neighbours. */
    public static class City implements Iterable<City> {
        /** The city's index in the network (0-based, file order). */
        public final int id;
        /** Where the city is drawn. */
        public final int xPos;
        /** Where the city is drawn. */
        public final int yPos;
        /** The city's name. */
        public final String name;

        private final Topology topology;
        private final List<City> neighbors = new ArrayList<>();
        private final List<City> neighborsView = Collections.unmodifiableList(neighbors);

        City(Topology topology, int id, String name, int xPos, int yPos) {
            this.topology = topology;
            this.id = id;
            this.name = name;
            this.xPos = xPos;
            this.yPos = yPos;
        }

        /** Same city (of the same network). */
        @Override
        public boolean equals(Object other) {
            return other instanceof City && ((City) other).id == id && ((City) other).topology == topology;
        }

        /**
         * The platform's hash of a city: 5581, then for each of its id, x, y and its name's hash in
         * turn, times 33 plus that value (int arithmetic). A HashMap or HashSet of cities iterates
         * in the order it gives, as on the platform.
         */
        @Override
        public int hashCode() {
            int hash = 5581;
            for (int part : new int[] {id, xPos, yPos, name.hashCode()}) {
                hash = 33 * hash + part;
            }
            return hash;
        }

        /** The city's name. */
        @Override
        public String toString() {
            return name;
        }

        /** The cities one road away, in the platform's order (see {@link Topology#Topology}; unmodifiable). */
        public List<City> neighbors() {
            return neighborsView;
        }

        /** Whether a road joins this city and {@code other}. */
        public boolean hasNeighbor(City other) {
            return neighbors.contains(other);
        }

        /** The neighbours, as {@link #neighbors()}. */
        @Override
        public Iterator<City> iterator() {
            return neighborsView.iterator();
        }

        /** The shortest distance to {@code other} in units (km x 1000). */
        public long distanceUnitsTo(City other) {
            return topology.units[id][other.id];
        }

        /** The shortest distance to {@code other} in km (its units / 1000). */
        public double distanceTo(City other) {
            return topology.units[id][other.id] / 1000.0;
        }

        /**
         * The cities after this one up to and including {@code destination} along a shortest path
         * (empty for this city itself); a new list each time.
         */
        public List<City> pathTo(City destination) {
            int[] previous = topology.previous[id];
            List<City> path = new ArrayList<>();
            for (int c = destination.id; c != id; c = previous[c]) {
                if (c < 0) {
                    throw new TopologyException("no road leads from " + name + " to " + destination);
                }
                path.add(topology.cities.get(c));
            }
            Collections.reverse(path);
            return path;
        }

        /** A neighbour drawn with {@code random} (each equally likely). */
        public City randomNeighbor(Random random) {
            return neighbors.get(random.nextInt(neighbors.size()));
        }
    }

    /** Builds a network: cities first, then the roads between them. */
    public static class Builder {
        private final List<String> names = new ArrayList<>();
        private final List<int[]> positions = new ArrayList<>();
        private final Map<String, Integer> index = new HashMap<>();
        private final List<long[]> routes = new ArrayList<>();

        public Builder() {
        }

        /** Add the city {@code name} drawn at ({@code x}, {@code y}); its id is the number of cities added before. */
        public void addCity(String name, int x, int y) {
            if (index.containsKey(name)) {
                throw new TopologyException("the city " + name + " is added twice");
            }
            index.put(name, names.size());
            names.add(name);
            positions.add(new int[] {x, y});
        }

        /**
         * Add a road between the cities {@code from} and {@code to} of {@code distance} units (km x
         * 1000, as {@code Measures.kmToUnits} gives them); a second road between the same cities
         * keeps the shorter length.
         */
        public void addRoute(String from, String to, long distance) {
            Integer a = index.get(from);
            Integer b = index.get(to);
            if (a == null || b == null) {
                throw new TopologyException("a route from " + from + " to " + to + " names an unknown city");
            }
            if (distance < 0) {
                throw new TopologyException("the route from " + from + " to " + to + " has a negative length");
            }
            routes.add(new long[] {a, b, distance});
        }

        /** The network (its shortest paths computed). */
        public Topology build() {
            return new Topology(this);
        }
    }

    /** A road between two cities (by id), either way: hashed as the platform hashes its roads. */
    private static final class Road {
        final int from;
        final int to;

        Road(int from, int to) {
            this.from = from;
            this.to = to;
        }

        @Override
        public boolean equals(Object other) {
            if (!(other instanceof Road)) {
                return false;
            }
            Road r = (Road) other;
            return (from == r.from && to == r.to) || (from == r.to && to == r.from);
        }

        @Override
        public int hashCode() {
            return from ^ to;
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

    private String name = "topology";
    private final List<City> cities = new ArrayList<>();
    private final List<City> citiesView = Collections.unmodifiableList(cities);
    private final Map<String, City> byName = new HashMap<>();
    private final long[][] units;
    private final int[][] previous;

    /**
     * The network of {@code builder}'s cities and roads. The platform keeps a network's roads in a
     * {@code java.util.HashSet}, a road hashing as the exclusive or of its cities' ids, and lists
     * each city's neighbours in the order it iterates over that set; so does apdp (same hash, same
     * order of insertion, the same JDK class), so that {@link City#neighbors()}, and what
     * {@link City#randomNeighbor} draws, are the platform's.
     */
    private Topology(Builder builder) {
        int n = builder.names.size();
        for (int i = 0; i < n; i++) {
            int[] at = builder.positions.get(i);
            City city = new City(this, i, builder.names.get(i), at[0], at[1]);
            cities.add(city);
            byName.put(city.name, city);
        }
        long[][] road = new long[n][n];
        for (long[] row : road) {
            Arrays.fill(row, -1);
        }
        Set<Road> roads = new HashSet<>();
        for (long[] route : builder.routes) {
            int a = (int) route[0];
            int b = (int) route[1];
            if (a == b) {
                continue;
            }
            roads.add(new Road(a, b));
            if (road[a][b] < 0 || route[2] < road[a][b]) {
                road[a][b] = route[2];
                road[b][a] = route[2];
            }
        }
        for (Road r : roads) {
            City a = cities.get(r.from);
            City b = cities.get(r.to);
            a.neighbors.add(b);
            b.neighbors.add(a);
        }
        units = new long[n][];
        previous = new int[n][];
        for (int s = 0; s < n; s++) {
            shortestPathsFrom(s, road);
        }
    }

    /** Networks up to this many cities are searched without a queue (see {@link #shortestPathsFrom}). */
    private static final int SMALL = 64;

    /**
     * Dijkstra's search from {@code source}: cities are settled by distance, then id, and a city's
     * previous one changes only for a strictly shorter path. A small network scans its cities for
     * the next to settle (no queue: its start runs interpreted, and a queue's calls cost more than
     * the scan); a large one takes them from a queue. Both settle in the same order: the same paths.
     */
    private void shortestPathsFrom(int source, long[][] road) {
        if (cities.size() <= SMALL) {
            scanShortestPathsFrom(source, road);
            return;
        }
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

    private void scanShortestPathsFrom(int source, long[][] road) {
        int n = cities.size();
        long[] dist = new long[n];
        int[] prev = new int[n];
        boolean[] done = new boolean[n];
        for (int i = 0; i < n; i++) {
            dist[i] = Long.MAX_VALUE;
            prev[i] = -1;
        }
        dist[source] = 0;
        prev[source] = source;
        while (true) {
            int c = -1;
            for (int i = 0; i < n; i++) {
                if (!done[i] && dist[i] != Long.MAX_VALUE && (c < 0 || dist[i] < dist[c])) {
                    c = i;
                }
            }
            if (c < 0) {
                break;
            }
            done[c] = true;
            long[] roads = road[c];
            for (int next = 0; next < n; next++) {
                long length = roads[next];
                if (length >= 0 && next != c) {
                    long d = dist[c] + length;
                    if (d < dist[next]) {
                        dist[next] = d;
                        prev[next] = c;
                    }
                }
            }
        }
        units[source] = dist;
        previous[source] = prev;
    }

    /** The cities, in the network's order. */
    @Override
    public Iterator<City> iterator() {
        return citiesView.iterator();
    }

    /** The cities in brackets, as the platform writes a network: {@code [Brest, Le Havre, Paris]}. */
    @Override
    public String toString() {
        return cities.toString();
    }

    /** The cities, in the network's order (unmodifiable). */
    public List<City> cities() {
        return citiesView;
    }

    /** The number of cities. */
    public int size() {
        return cities.size();
    }

    /** A city drawn with {@code random} (each equally likely). */
    public City randomCity(Random random) {
        return cities.get(random.nextInt(cities.size()));
    }

    /** Whether {@code city} is a city of this network. */
    public boolean contains(City city) {
        return city != null && city.topology == this;
    }

    /** The city called {@code name}; an IllegalArgumentException (as on the platform) when there is none. */
    public City parseCity(String name) {
        City city = byName.get(name);
        if (city == null) {
            throw new IllegalArgumentException("no city named " + name + " in " + this.name);
        }
        return city;
    }
}
