package exercises;

import logist.agent.Agent;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskSet;

/** What the test agents print of the values the platform hands them, one line each. */
final class Views {
    private Views() {
    }

    static String task(Task t) {
        return t == null ? "none" : t.id + ":" + t.pickupCity + "->" + t.deliveryCity + ":w" + t.weight + ":r" + t.reward;
    }

    static String tasks(TaskSet tasks) {
        if (tasks == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("[");
        for (Task t : tasks) {
            out.append(task(t)).append(' ');
        }
        return out.append(']').toString();
    }

    static String vehicle(Vehicle v) {
        return "veh=" + v.name() + " id=" + v.id() + " city=" + v.getCurrentCity() + " carried=" + tasks(v.getCurrentTasks())
                + " vReward=" + v.getReward() + " vUnits=" + v.getDistanceUnits() + " vKm=" + v.getDistance();
    }

    static String agent(Agent a) {
        return "aReward=" + a.getTotalReward() + " aCost=" + a.getTotalCost() + " aProfit=" + a.getTotalProfit()
                + " aUnits=" + a.getTotalDistanceUnits() + " aKm=" + a.getTotalDistance() + " aTasks=" + a.getTotalTasks()
                + " getTasks=" + tasks(a.getTasks());
    }
}
