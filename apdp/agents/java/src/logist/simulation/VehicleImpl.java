package logist.simulation;

import java.awt.Color;

import apdp.host.Hooks;
import logist.Measures;
import logist.plan.Action;
import logist.plan.ActionHandler;
import logist.task.Task;
import logist.task.TaskSet;
import logist.topology.Topology.City;

/**
 * A vehicle the platform drives: it asks its controller (its agent) for actions and executes them,
 * counting the distance it drives and the rewards of the tasks it delivers. {@link #getInfo()} is
 * the {@link Vehicle} an agent sees of it (live: it follows the vehicle).
 *
 * <p>The constructor's arguments are the vehicle's id, name, capacity, cost per km, home city,
 * speed in units (km/h x 1000: {@link logist.Measures#kmToUnits}) and colour. A new vehicle is
 * nowhere (its current city is null) until {@link #beginRound} puts it at home. Agents use a
 * VehicleImpl of their own to simulate (e.g. {@link #setTasks} then {@link #getInfo()}); apdp's host
 * hands agents its own vehicles.
 */
public class VehicleImpl extends MovingObject implements ActionHandler<Boolean> {

    static {
        Hooks.register(Hooks.Vehicles.class, new Hooks.Vehicles() { // not a lambda: faster to start
            @Override
            public Vehicle vehicle(int id, String name, int capacity, int costPerKm, City home, long speed, int rgb) {
                return new VehicleImpl(id, name, capacity, costPerKm, home, speed, null, rgb).info;
            }

            @Override
            public void home(Vehicle vehicle) {
                VehicleImpl owner = ((Info) vehicle).owner();
                owner.current = owner.home;
                owner.carried = TaskSet.create(new Task[0]);
                owner.delivered = 0;
            }

            @Override
            public void state(Vehicle vehicle, City city, TaskSet carried, int delivered, long reward, long units) {
                VehicleImpl owner = ((Info) vehicle).owner();
                owner.current = city;
                owner.carried = carried;
                owner.delivered = delivered;
                owner.reward = reward;
                owner.distanceUnits = units;
            }

            @Override
            public int numTasks(Vehicle vehicle) {
                return vehicle instanceof Info ? ((Info) vehicle).owner().numTasks() : 0;
            }
        });
    }

    private final int id;
    private final String name;
    private final int capacity;
    private final int costPerKm;
    private final City home;
    private final long speed;
    private Color color;
    /** The colour as RGB when {@code color} is made only when asked for (java.awt is slow to load). */
    private final Integer rgb;
    private final Info info = new Info();
    private VehicleController controller;
    /** The tasks on board: none known (null) until its first round or setTasks, as on the platform. */
    private TaskSet carried;
    private TaskSet available;
    private Action pending;
    private long distanceUnits;
    private long reward;
    /** The tasks delivered since the task set was last set (the platform's finished tasks). */
    private int delivered;

    public VehicleImpl(int id, String name, int capacity, int costPerKm, City home, long speed, Color color) {
        this(id, name, capacity, costPerKm, home, speed, color, null);
    }

    private VehicleImpl(int id, String name, int capacity, int costPerKm, City home, long speed, Color color,
            Integer rgb) {
        super(null); // nowhere until its first round, as on the platform
        this.id = id;
        this.name = name;
        this.capacity = capacity;
        this.costPerKm = costPerKm;
        this.home = home;
        this.speed = speed;
        this.color = color;
        this.rgb = rgb;
    }

    /** The agent that gives this vehicle its actions. */
    public void setController(VehicleController controller) {
        this.controller = controller;
    }

    /**
     * A new round: the vehicle is back at its home city, carrying nothing, and may pick up the tasks
     * of {@code tasks} (null: any). The set is shared, not copied: a task a vehicle picks up is
     * removed from it, so that vehicles given the same set never take a task twice. Its distance and
     * reward go on counting.
     */
    public void beginRound(TaskSet tasks) {
        current = home;
        carried = TaskSet.create(new Task[0]);
        delivered = 0;
        available = tasks;
        pending = null;
    }

    /** Make {@code tasks} the tasks on board (what {@code getInfo().getCurrentTasks()} says); none delivered since. */
    public void setTasks(TaskSet tasks) {
        carried = TaskSet.copyOf(tasks);
        delivered = 0;
    }

    /** Where the vehicle is. */
    public City getCurrentCity() {
        return current;
    }

    /** Whether the controller has an action for this vehicle (asked once per action). */
    public boolean hasNextAction() {
        if (pending == null && controller != null) {
            pending = controller.nextAction(id);
        }
        return pending != null;
    }

    /**
     * Execute the controller's next action (null when there is none); an action that cannot be
     * executed (a pickup or delivery in the wrong place, too heavy a load) is reported to the
     * controller's {@code stuckAction} and skipped.
     */
    public Action executeNextAction() {
        if (!hasNextAction()) {
            return null;
        }
        Action action = pending;
        pending = null;
        if (!action.accept(this) && controller != null) {
            controller.stuckAction(id, action);
        }
        return action;
    }

    /** The rewards earned per unit of cost (km driven x cost per km); 0 before it drives. */
    public double getRewardRatio() {
        double cost = distanceUnits / 1000.0 * costPerKm;
        return cost > 0 ? reward / cost : 0.0;
    }

    /** The number of tasks on board and delivered since its task set was last set, as on the platform. */
    public int numTasks() {
        return (carried == null ? 0 : carried.size()) + delivered;
    }

    /** Deliver {@code task}: true when the vehicle carries it and is in its delivery city. */
    @Override
    public Boolean deliver(Task task) {
        if (task == null || !task.deliveryCity.equals(current) || !carried.remove(task)) {
            return Boolean.FALSE;
        }
        reward += task.reward;
        delivered++;
        if (controller != null) {
            controller.notifyDelivery(task);
        }
        return Boolean.TRUE;
    }

    /** Drive to {@code city} (along a shortest path when it is not a neighbour): always true. */
    @Override
    public Boolean moveTo(City city) {
        if (city == null) {
            return Boolean.FALSE;
        }
        if (current != null) {
            distanceUnits += current.distanceUnitsTo(city);
        }
        current = city;
        return Boolean.TRUE;
    }

    /** Pick up {@code task}: true when the vehicle is in its pickup city, may take it and has room for it. */
    @Override
    public Boolean pickup(Task task) {
        if (task == null || !task.pickupCity.equals(current) || carried.contains(task)
                || (available != null && !available.contains(task))
                || carried.weightSum() + task.weight > capacity) {
            return Boolean.FALSE;
        }
        carried.add(task);
        if (available != null) {
            available.remove(task);
        }
        if (controller != null) {
            controller.notifyPickup(task);
        }
        return Boolean.TRUE;
    }

    /** The vehicle as an agent sees it. */
    public Vehicle getInfo() {
        return info;
    }

    /** The live view of this vehicle. */
    private final class Info implements Vehicle {
        VehicleImpl owner() {
            return VehicleImpl.this;
        }

        @Override
        public int id() {
            return id;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int capacity() {
            return capacity;
        }

        @Override
        public City homeCity() {
            return home;
        }

        @Override
        public double speed() {
            return Measures.unitsToKM(speed);
        }

        @Override
        public int costPerKm() {
            return costPerKm;
        }

        @Override
        public City getCurrentCity() {
            return current;
        }

        @Override
        public TaskSet getCurrentTasks() {
            return TaskSet.copyOf(carried);
        }

        @Override
        public long getReward() {
            return reward;
        }

        @Override
        public long getDistanceUnits() {
            return distanceUnits;
        }

        @Override
        public double getDistance() {
            return distanceUnits / 1000.0;
        }

        @Override
        public Color color() {
            if (color == null && rgb != null) {
                color = new Color(rgb);
            }
            return color;
        }
    }
}
