package course;

import java.util.ArrayList;
import java.util.List;

import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;

/** A company's schedules, one per vehicle (or, as a shadow fleet, a copy of one's own vehicles). */
final class Fleet {
    private final List<Schedule> schedules = new ArrayList<>();

    Fleet(List<Vehicle> vehicles) {
        for (Vehicle vehicle : vehicles) {
            schedules.add(new Schedule(vehicle));
        }
    }

    /** The vehicle with the smallest marginal cost: the first, replaced only by a strictly cheaper one. */
    private int cheapest(Task task) {
        int best = 0;
        double bestCost = schedules.get(0).marginalCost(task);
        for (int vehicle = 1; vehicle < schedules.size(); vehicle++) {
            double cost = schedules.get(vehicle).marginalCost(task);
            if (cost < bestCost) {
                best = vehicle;
                bestCost = cost;
            }
        }
        return best;
    }

    double marginalCost(Task task) {
        return schedules.get(cheapest(task)).marginalCost(task);
    }

    void add(Task task) {
        schedules.get(cheapest(task)).add(task);
    }

    List<Plan> plans() {
        List<Plan> plans = new ArrayList<>();
        for (Schedule schedule : schedules) {
            plans.add(schedule.plan());
        }
        return plans;
    }
}
