package logist.agent;

/**
 * What an agent achieved: its name and totals. During an auction game nothing has been driven or
 * delivered yet: every total is 0. Statistics are ordered by total profit (then name).
 */
public interface AgentStatistics extends Comparable<AgentStatistics> {

    String name();

    /** The distance its vehicles drove, in units (km x 1000). */
    long getTotalDistanceUnits();

    /** The distance its vehicles drove, in km. */
    double getTotalDistance();

    /** What driving cost: each vehicle's km x its cost per km, rounded. */
    long getTotalCost();

    /** The rewards of the tasks delivered. */
    long getTotalReward();

    /** Reward less cost. */
    long getTotalProfit();

    /** The number of tasks delivered. */
    int getTotalTasks();
}
