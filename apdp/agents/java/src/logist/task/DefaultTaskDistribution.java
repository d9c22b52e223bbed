package logist.task;

import java.util.List;
import java.util.Random;

import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * The distribution of tasks over the ordered pairs of cities, as the platform builds it from a
 * configuration's values: each pair's probability, reward and weight (matrices indexed
 * {@code [pickup id][delivery id]}), and each city's probability of having no task (the reactive
 * exercise's; 0 in an auction).
 *
 * <p>{@link #probability} is the platform's: a pickup city's values scaled so that its row and its
 * no-task probability sum to 1 (each value times {@code (1 - noTask) / row sum}, in that order of
 * operations, so that it is the platform's double to the last bit). {@link #createTask()} draws a
 * task as the platform draws a configuration's tasks, from the values as given (one
 * {@code nextDouble()} picks a row by subtracting row sums, then a column by adding its values);
 * {@link #createTask(City)} walks the scaled row of {@code from}.
 *
 * <p>As on the platform, a task created here has the id 0, or its index in the array
 * {@link #createTaskSet(Task[])} fills; in a match of a Logist configuration with the platform's
 * draw, {@link #getRandom()} is the platform's generator as the agent found it there (seeded with the
 * configuration's {@code rngSeed}, past the draws of the matrices and, after setup, of the tasks).
 */
public class DefaultTaskDistribution implements TaskDistribution {

    private final Topology topology;
    private final Random random;
    /** The values as given (what the draw of a configuration's tasks walks). */
    private final double[][] values;
    /** Each row scaled as the platform scales it (what an agent is told). */
    private final double[][] probabilities;
    private final double[] rowSums;
    private final double total;
    private final double[][] rewards;
    private final double[][] weights;
    private final double[] noTask;

    /**
     * The distribution over {@code topology}'s cities: {@code probabilities}, {@code rewards} and
     * {@code weights} of each ordered pair, {@code noTask} of each city (may be null: 0), drawing
     * with {@code random}.
     */
    public DefaultTaskDistribution(Topology topology, Random random, double[][] probabilities, double[][] rewards,
            double[][] weights, double[] noTask) {
        this.topology = topology;
        this.random = random;
        this.values = probabilities;
        this.rewards = rewards;
        this.weights = weights;
        this.noTask = noTask;
        int n = probabilities.length;
        this.probabilities = new double[n][];
        this.rowSums = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            double row = 0;
            for (double p : probabilities[i]) {
                row += p;
            }
            rowSums[i] = row;
            sum += row;
            double scale = (1.0 - noTask(i)) / row;
            double[] scaled = new double[probabilities[i].length];
            for (int j = 0; j < scaled.length; j++) {
                scaled[j] = probabilities[i][j] * scale;
            }
            this.probabilities[i] = scaled;
        }
        this.total = sum;
    }

    private double noTask(int city) {
        return noTask == null ? 0.0 : noTask[city];
    }

    /**
     * The probability that a task of {@code from} goes to {@code to} (its row scaled, see the class's
     * comment); {@code to == null}: the probability {@code from} has no task.
     */
    @Override
    public double probability(City from, City to) {
        if (to == null) {
            return noTask(from.id);
        }
        return probabilities[from.id][to.id];
    }

    /** The pair's reward, truncated to an int (0 when {@code to} is null). */
    @Override
    public int reward(City from, City to) {
        return to == null ? 0 : (int) rewards[from.id][to.id];
    }

    /** The pair's weight, truncated to an int (0 when {@code to} is null). */
    @Override
    public int weight(City from, City to) {
        return to == null ? 0 : (int) weights[from.id][to.id];
    }

    /**
     * A task picked up in {@code from}: one {@code nextDouble()} walks the cities in order,
     * subtracting each one's probability, and the first at which it is used up is the delivery;
     * null when it is not used up (the no-task share). Its id is 0.
     */
    public Task createTask(City from) {
        double x = random.nextDouble();
        for (City to : topology) {
            x -= probabilities[from.id][to.id];
            if (x <= 0.0) {
                return new Task(0, from, to, (long) (int) rewards[from.id][to.id], (int) weights[from.id][to.id]);
            }
        }
        return null;
    }

    /** {@code n} tasks drawn with {@link #createTask()}. */
    public TaskSet createTaskSet(int n) {
        return createTaskSet(new Task[n]);
    }

    /** Fill {@code tasks} with tasks drawn as {@link #createTask()} draws, the id of each its index; a set of them. */
    public TaskSet createTaskSet(Task[] tasks) {
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = draw(i);
        }
        return TaskSet.create(tasks);
    }

    /** A task drawn as the platform draws a configuration's tasks (see the class's comment); its id is 0. */
    public Task createTask() {
        return draw(0);
    }

    private Task draw(int id) {
        if (!(total > 0)) {
            throw new IllegalStateException("the distribution gives no pair of cities a probability");
        }
        double x = random.nextDouble() * total;
        int n = values.length;
        for (int i = 0; i < n; i++) {
            x -= rowSums[i];
            if (x < 0) {
                for (int j = 0; j < n; j++) {
                    x += values[i][j];
                    if (x >= 0) {
                        return task(id, i, j);
                    }
                }
            }
        }
        throw new AssertionError("no task was drawn");
    }

    /** The generator this distribution draws with. */
    public Random getRandom() {
        return random;
    }

    private Task task(int id, int from, int to) {
        List<City> cities = topology.cities();
        return new Task(id, cities.get(from), cities.get(to), (long) rewards[from][to],
                (int) weights[from][to]);
    }
}
