package logist.task;

import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A set of tasks, iterated in increasing id. Tasks are compared by identity (apdp's host hands out
 * one object per task), so a set may also hold an agent's own tasks (made with {@code new Task} or
 * {@code DefaultTaskDistribution.createTask}) beside the auctioned ones: apdp's sets are not bound
 * to a fixed universe of tasks as the platform's are. A set holds no null.
 */
public abstract class TaskSet extends AbstractSet<Task> implements Cloneable {

    TaskSet() {
    }

    /** A set of {@code tasks}. */
    public static TaskSet create(Task[] tasks) {
        Sorted set = new Sorted(tasks.length);
        for (Task task : tasks) {
            set.add(task);
        }
        return set;
    }

    /** A copy of {@code set}. */
    public static TaskSet copyOf(TaskSet set) {
        Sorted copy = new Sorted(set.size());
        for (Task task : set) {
            copy.tasks.add(task); // already in order
        }
        return copy;
    }

    /** An empty set, for tasks of the same kind as {@code set}'s. */
    public static TaskSet noneOf(TaskSet set) {
        return new Sorted(Math.max(set.size(), 4));
    }

    /** The tasks in {@code a} or in {@code b} (a new set). */
    public static TaskSet union(TaskSet a, TaskSet b) {
        TaskSet set = copyOf(a);
        set.addAll(b);
        return set;
    }

    /** The tasks in both {@code a} and {@code b} (a new set). */
    public static TaskSet intersect(TaskSet a, TaskSet b) {
        TaskSet set = copyOf(a);
        set.retainAll(b);
        return set;
    }

    /** The tasks in {@code a} and not in {@code b} (a new set). */
    public static TaskSet intersectComplement(TaskSet a, TaskSet b) {
        TaskSet set = copyOf(a);
        set.removeAll(b);
        return set;
    }

    /** The sum of the tasks' weights. */
    public int weightSum() {
        int sum = 0;
        for (Task task : this) {
            sum += task.weight;
        }
        return sum;
    }

    /** The sum of the tasks' rewards, as an int. */
    public int rewardSum() {
        long sum = 0;
        for (Task task : this) {
            sum += task.reward;
        }
        return (int) sum;
    }

    /** The tasks in increasing id. */
    @Override
    public abstract Iterator<Task> iterator();

    /** The tasks in brackets: {@code [(Task 0, ...), (Task 2, ...)]}. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("[");
        for (Task task : this) {
            if (out.length() > 1) {
                out.append(", ");
            }
            out.append(task);
        }
        return out.append(']').toString();
    }

    /** A copy of this set. */
    @Override
    public TaskSet clone() {
        return copyOf(this);
    }

    /** apdp's set: tasks in a list kept in increasing id (equal ids in the order added). */
    private static final class Sorted extends TaskSet {
        private final ArrayList<Task> tasks;

        Sorted(int capacity) {
            tasks = new ArrayList<>(capacity);
        }

        /** Where a task of id {@code id} goes: after every task of a smaller or equal id. */
        private int slot(int id) {
            int lo = 0;
            int hi = tasks.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (tasks.get(mid).id <= id) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        private int indexOf(Object o) {
            if (!(o instanceof Task)) {
                return -1;
            }
            Task task = (Task) o;
            for (int i = slot(task.id) - 1; i >= 0 && tasks.get(i).id == task.id; i--) {
                if (tasks.get(i) == task) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public boolean add(Task task) {
            if (task == null) {
                throw new NullPointerException("a TaskSet holds no null");
            }
            if (indexOf(task) >= 0) {
                return false;
            }
            tasks.add(slot(task.id), task);
            return true;
        }

        @Override
        public boolean contains(Object o) {
            return indexOf(o) >= 0;
        }

        @Override
        public boolean remove(Object o) {
            int i = indexOf(o);
            if (i < 0) {
                return false;
            }
            tasks.remove(i);
            return true;
        }

        @Override
        public void clear() {
            tasks.clear();
        }

        @Override
        public int size() {
            return tasks.size();
        }

        @Override
        public Iterator<Task> iterator() {
            return new Iterator<Task>() {
                private int next;
                private int last = -1;

                @Override
                public boolean hasNext() {
                    return next < tasks.size();
                }

                @Override
                public Task next() {
                    if (next >= tasks.size()) {
                        throw new NoSuchElementException();
                    }
                    last = next++;
                    return tasks.get(last);
                }

                @Override
                public void remove() {
                    if (last < 0) {
                        throw new IllegalStateException();
                    }
                    tasks.remove(last);
                    next = last;
                    last = -1;
                }
            };
        }
    }
}
