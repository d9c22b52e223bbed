package logist.task;

import java.util.List;
import java.util.Random;

import apdp.host.Hooks;
import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * The distribution of tasks over the ordered pairs of cities: each pair's probability, reward and
 * weight (matrices indexed {@code [pickup id][delivery id]}), and each city's probability of having
 * no task (the reactive exercise's; 0 in apdp's matches). {@link #createTask()} draws a task as the
 * platform draws a configuration's tasks (one {@code nextDouble()} picks a row by subtracting row
 * sums, then a column by adding its values), with this distribution's {@link Random}.
 *
 * <p>Tasks created here get ids counting up from 0; in apdp's host, from 1000, clear of the ids of
 * auctioned tasks in any usual match.
 */
public class DefaultTaskDistribution implements TaskDistribution {

    static {
        Hooks.register(Hooks.Distributions.class, new Hooks.Distributions() { // not a lambda: faster to start
            @Override
            public void nextId(DefaultTaskDistribution distribution, int id) {
                distribution.nextId = id;
            }
        });
    }

    private final Topology topology;
    private final Random random;
    private final double[][] probabilities;
    private final double[][] rewards;
    private final double[][] weights;
    private final double[] noTask;
    private int nextId;

    /**
     * The distribution over {@code topology}'s cities: {@code probabilities}, {@code rewards} and
     * {@code weights} of each ordered pair, {@code noTask} of each city (may be null: 0), drawing
     * with {@code random}.
     */
    public DefaultTaskDistribution(Topology topology, Random random, double[][] probabilities, double[][] rewards,
            double[][] weights, double[] noTask) {
        this.topology = topology;
        this.random = random;
        this.probabilities = probabilities;
        this.rewards = rewards;
        this.weights = weights;
        this.noTask = noTask;
    }

    /** The pair's probability value; {@code to == null}: the probability {@code from} has no task. */
    @Override
    public double probability(City from, City to) {
        if (from == null) {
            return 0.0;
        }
        if (to == null) {
            return noTask == null ? 0.0 : noTask[from.id];
        }
        return probabilities[from.id][to.id];
    }

    /** The pair's reward, truncated to an int. */
    @Override
    public int reward(City from, City to) {
        return (int) rewards[from.id][to.id];
    }

    /** The pair's weight, truncated to an int. */
    @Override
    public int weight(City from, City to) {
        return (int) weights[from.id][to.id];
    }

    /**
     * A task picked up in {@code from}: its delivery city drawn by the row's probabilities (one
     * {@code nextDouble()}); null when no pair from {@code from} has any probability.
     */
    public Task createTask(City from) {
        double[] row = probabilities[from.id];
        double sum = 0;
        for (double p : row) {
            sum += p;
        }
        if (!(sum > 0)) {
            return null;
        }
        double x = random.nextDouble() * sum;
        int last = -1;
        for (int j = 0; j < row.length; j++) {
            if (row[j] > 0) {
                last = j;
                x -= row[j];
                if (x < 0) {
                    return task(from.id, j);
                }
            }
        }
        return task(from.id, last); // rounding: the last pair with any probability
    }

    /** {@code n} tasks drawn with {@link #createTask()}. */
    public TaskSet createTaskSet(int n) {
        Task[] tasks = new Task[n];
        for (int i = 0; i < n; i++) {
            tasks[i] = createTask();
        }
        return TaskSet.create(tasks);
    }

    /** A set of {@code tasks}. */
    public TaskSet createTaskSet(Task[] tasks) {
        return TaskSet.create(tasks);
    }

    /** A task drawn as the platform draws a configuration's tasks (see the class's comment). */
    public Task createTask() {
        int n = probabilities.length;
        double[] sums = new double[n];
        double total = 0;
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (double p : probabilities[i]) {
                s += p;
            }
            sums[i] = s;
            total += s;
        }
        if (!(total > 0)) {
            throw new IllegalStateException("the distribution gives no pair of cities a probability");
        }
        double x = random.nextDouble() * total;
        int row = -1;
        for (int i = 0; i < n; i++) {
            x -= sums[i];
            if (x < 0) {
                row = i;
                for (int j = 0; j < n; j++) {
                    x += probabilities[i][j];
                    if (x >= 0) {
                        return task(i, j);
                    }
                }
                break;
            }
        }
        if (row < 0) { // rounding: the last row with any probability
            for (int i = 0; i < n; i++) {
                if (sums[i] > 0) {
                    row = i;
                }
            }
        }
        int column = -1;
        for (int j = 0; j < n; j++) {
            if (probabilities[row][j] > 0) {
                column = j;
            }
        }
        return task(row, column);
    }

    /** The generator this distribution draws with. */
    public Random getRandom() {
        return random;
    }

    private Task task(int from, int to) {
        List<City> cities = topology.cities();
        return new Task(nextId++, cities.get(from), cities.get(to), (long) (int) rewards[from][to],
                (int) weights[from][to]);
    }
}
