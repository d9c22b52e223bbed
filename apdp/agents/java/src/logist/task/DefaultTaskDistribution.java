package logist.task;

import java.util.Random;

import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * The distribution of a match's tasks, as apdp's referee states it: the probability of every
 * ordered pair of cities and each pair's weight and reward. {@link #createTask()} draws a task.
 */
public class DefaultTaskDistribution implements TaskDistribution {
    /** The id of the first task {@link #createTask()} draws (clear of the ids of auctioned tasks). */
    public static final int FIRST_CREATED_ID = 1000;

    private final Topology topology;
    private final double[][] probability;
    private final int[][] weight;
    private final int[][] reward;
    private final Random random;
    private int nextId = FIRST_CREATED_ID;

    /** The distribution over {@code topology}'s city pairs, drawing with {@code random}. */
    public DefaultTaskDistribution(Topology topology, double[][] probability, int[][] weight, int[][] reward,
            Random random) {
        this.topology = topology;
        this.probability = probability;
        this.weight = weight;
        this.reward = reward;
        this.random = random;
    }

    @Override
    public double probability(City from, City to) {
        return from == null || to == null ? 0.0 : probability[from.id][to.id];
    }

    @Override
    public int reward(City from, City to) {
        return reward[from.id][to.id];
    }

    @Override
    public int weight(City from, City to) {
        return weight[from.id][to.id];
    }

    /** A task drawn from the distribution (ids count up from {@link #FIRST_CREATED_ID}). */
    public Task createTask() {
        double total = 0;
        for (double[] row : probability) {
            for (double p : row) {
                total += p;
            }
        }
        double x = random.nextDouble() * total;
        int n = topology.size();
        int from = -1;
        int to = -1;
        search:
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (probability[i][j] > 0) {
                    from = i;
                    to = j;
                    x -= probability[i][j];
                    if (x < 0) {
                        break search;
                    }
                }
            }
        }
        if (from < 0) {
            throw new IllegalStateException("the distribution gives no pair of cities a probability");
        }
        City a = topology.cities().get(from);
        City b = topology.cities().get(to);
        return new Task(nextId++, a, b, reward[from][to], weight[from][to]);
    }
}
