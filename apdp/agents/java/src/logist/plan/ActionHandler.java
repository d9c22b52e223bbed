package logist.plan;

import logist.task.Task;
import logist.topology.Topology.City;

/** What to do with each kind of action ({@link Action#accept}): a visitor of actions. */
public interface ActionHandler<T> {

    /** A move to {@code city}. */
    T moveTo(City city);

    /** The pickup of {@code task}. */
    T pickup(Task task);

    /** The delivery of {@code task}. */
    T deliver(Task task);
}
