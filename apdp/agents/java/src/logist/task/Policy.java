package logist.task;

import java.util.List;
import java.util.Random;

import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * How a configuration's {@code <probability>}, {@code <reward>} or {@code <weight>} values each
 * ordered pair of distinct cities (row by row in city order, the diagonal skipped and 0), as the
 * platform draws them: a value in [lo, hi] is {@code lo + (hi - lo) * f}, where f depends on the
 * pair's shortest distance d in km, the smallest and largest such distances dmin and dmax, and, for
 * a uniform law, one {@code nextDouble()} u per pair (half = (dmax - dmin) / 2, mid = (dmax + dmin) / 2):
 * <ul>
 * <li>{@link Uniform} (no policy): constant 0.5; uniform u;</li>
 * <li>{@link ShortDistances}: constant (dmax - d) / (2 half); uniform (dmax - d) / (4 half) + u / 2;</li>
 * <li>{@link LongDistances}: constant (d - dmin) / (2 half); uniform (d - dmin) / (4 half) + u / 2;</li>
 * <li>{@link MediumDistances}: constant (half - |d - mid|) / half; uniform (half - |d - mid|) / (2 half) + u / 2.</li>
 * </ul>
 * A distance policy's uniform f is thus half its constant f plus u / 2.
 * Where every pair is as far apart (half = 0) a distance policy counts as none.
 */
public abstract class Policy {
    final double[][] km;
    final double dmin;
    final double dmax;

    Policy(Topology topology) {
        List<City> cities = topology.cities();
        int n = cities.size();
        km = new double[n][n];
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                km[i][j] = cities.get(i).distanceTo(cities.get(j));
                if (i != j) {
                    lo = Math.min(lo, km[i][j]);
                    hi = Math.max(hi, km[i][j]);
                }
            }
        }
        dmin = n > 1 ? lo : 0;
        dmax = n > 1 ? hi : 0;
    }

    /** f of a constant law for a pair {@code d} km apart. */
    abstract double constantFactor(double d, double half, double mid);

    /** f of a uniform law for a pair {@code d} km apart and the pair's draw {@code u}: a distance policy's. */
    double uniformFactor(double d, double half, double mid, double u) {
        return constantFactor(d, half, mid) / 2 + u / 2;
    }

    /** The values of a constant law from {@code lo} to {@code hi} for every ordered pair. */
    public double[][] constant(double lo, double hi) {
        return matrix(lo, hi, null);
    }

    /** The values of a uniform law from {@code lo} to {@code hi}, one {@code random.nextDouble()} per pair. */
    public double[][] uniform(double lo, double hi, Random random) {
        return matrix(lo, hi, random);
    }

    private double[][] matrix(double lo, double hi, Random random) {
        int n = km.length;
        double half = (dmax - dmin) / 2;
        double mid = (dmax + dmin) / 2;
        double[][] out = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i == j) {
                    continue;
                }
                double f;
                if (random == null) {
                    f = half > 0 ? constantFactor(km[i][j], half, mid) : 0.5;
                } else {
                    double u = random.nextDouble();
                    f = half > 0 ? uniformFactor(km[i][j], half, mid, u) : u;
                }
                out[i][j] = lo + (hi - lo) * f;
            }
        }
        return out;
    }

    /** {@code n} values {@code value} (one per city). */
    public static double[] constant(int n, double value) {
        double[] out = new double[n];
        java.util.Arrays.fill(out, value);
        return out;
    }

    /** {@code n} values drawn uniformly from {@code lo} to {@code hi} (one per city, in order). */
    public static double[] uniform(int n, double lo, double hi, Random random) {
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = lo + (hi - lo) * random.nextDouble();
        }
        return out;
    }

    /** No distance policy: constant 0.5, uniform u. */
    public static class Uniform extends Policy {
        public Uniform(Topology topology) {
            super(topology);
        }

        @Override
        double constantFactor(double d, double half, double mid) {
            return 0.5;
        }

        @Override
        double uniformFactor(double d, double half, double mid, double u) {
            return u;
        }
    }

    /** Higher values for nearer cities. */
    public static class ShortDistances extends Policy {
        public ShortDistances(Topology topology) {
            super(topology);
        }

        @Override
        double constantFactor(double d, double half, double mid) {
            return (dmax - d) / (2 * half);
        }
    }

    /** Higher values for farther cities. */
    public static class LongDistances extends Policy {
        public LongDistances(Topology topology) {
            super(topology);
        }

        @Override
        double constantFactor(double d, double half, double mid) {
            return (d - dmin) / (2 * half);
        }
    }

    /** Higher values for cities at middle distances. */
    public static class MediumDistances extends Policy {
        public MediumDistances(Topology topology) {
            super(topology);
        }

        @Override
        double constantFactor(double d, double half, double mid) {
            return (half - Math.abs(d - mid)) / half;
        }
    }
}
