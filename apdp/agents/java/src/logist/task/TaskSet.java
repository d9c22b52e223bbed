package logist.task;

import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A set of tasks, iterated in increasing id. Tasks are compared by identity (the host hands out
 * one object per task).
 */
public final class TaskSet extends AbstractSet<Task> implements Cloneable {
    private ArrayList<Task> tasks;

    private TaskSet(Collection<Task> tasks) {
        this.tasks = new ArrayList<>(tasks.size());
        for (Task task : tasks) {
            add(task);
        }
    }

    /** A set of {@code tasks}. */
    public static TaskSet create(Task[] tasks) {
        TaskSet set = new TaskSet(new ArrayList<>());
        for (Task task : tasks) {
            set.add(task);
        }
        return set;
    }

    /** An empty set of the kind of {@code set}. */
    public static TaskSet noneOf(TaskSet set) {
        return new TaskSet(new ArrayList<>());
    }

    /** A copy of {@code set}. */
    public static TaskSet copyOf(TaskSet set) {
        return new TaskSet(set.tasks);
    }

    /** The tasks in {@code a} or in {@code b}. */
    public static TaskSet union(TaskSet a, TaskSet b) {
        TaskSet set = copyOf(a);
        set.addAll(b);
        return set;
    }

    /** The tasks in both {@code a} and {@code b}. */
    public static TaskSet intersect(TaskSet a, TaskSet b) {
        TaskSet set = copyOf(a);
        set.retainAll(b);
        return set;
    }

    /** The tasks in {@code a} and not in {@code b}. */
    public static TaskSet intersectComplement(TaskSet a, TaskSet b) {
        TaskSet set = copyOf(a);
        set.removeAll(b);
        return set;
    }

    /** The sum of the tasks' weights. */
    public int weightSum() {
        int sum = 0;
        for (Task task : tasks) {
            sum += task.weight;
        }
        return sum;
    }

    /** The sum of the tasks' rewards. */
    public int rewardSum() {
        long sum = 0;
        for (Task task : tasks) {
            sum += task.reward;
        }
        return (int) sum;
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

    @Override
    public TaskSet clone() {
        try {
            TaskSet copy = (TaskSet) super.clone();
            copy.tasks = new ArrayList<>(tasks);
            return copy;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
