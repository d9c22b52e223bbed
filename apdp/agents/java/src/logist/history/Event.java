package logist.history;

import logist.plan.Action;
import logist.plan.ActionHandler;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.topology.Topology.City;

/** Something a vehicle did at a time of the simulation: arrive in a city, pick up or deliver a task. */
public class Event {
    final long time;
    final String vehicle;
    final String action;
    final String city;
    final Task task;

    private Event(long time, Vehicle vehicle, String action, City city, Task task) {
        this.time = time;
        this.vehicle = vehicle == null ? null : vehicle.name();
        this.action = action;
        this.city = city == null ? null : city.name;
        this.task = task;
    }

    /** {@code vehicle} arrives in {@code city} at {@code time}. */
    public static Event arrive(long time, Vehicle vehicle, City city) {
        return new Event(time, vehicle, "arrive", city, null);
    }

    /** {@code vehicle} delivers {@code task} at {@code time}. */
    public static Event deliver(long time, Vehicle vehicle, Task task) {
        return new Event(time, vehicle, "deliver", task.deliveryCity, task);
    }

    /** {@code vehicle} picks up {@code task} at {@code time}. */
    public static Event pickup(long time, Vehicle vehicle, Task task) {
        return new Event(time, vehicle, "pickup", task.pickupCity, task);
    }

    /** The event of {@code vehicle} executing {@code action} at {@code time}. */
    public static Event fromAction(final long time, final Vehicle vehicle, Action action) {
        return action.accept(new ActionHandler<Event>() {
            @Override
            public Event moveTo(City city) {
                return arrive(time, vehicle, city);
            }

            @Override
            public Event pickup(Task task) {
                return Event.pickup(time, vehicle, task);
            }

            @Override
            public Event deliver(Task task) {
                return Event.deliver(time, vehicle, task);
            }
        });
    }

    /** What happened: {@code arrive}, {@code pickup} or {@code deliver}. */
    public String action() {
        return action;
    }
}
