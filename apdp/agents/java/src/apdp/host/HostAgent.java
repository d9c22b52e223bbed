package apdp.host;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import logist.agent.Agent;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskSet;

/** The agent's company as the agent sees it: id, name, vehicles, tasks won, parameters. */
final class HostAgent implements Agent {
    private final int id;
    private final String name;
    private final List<Vehicle> vehicles;
    private final TaskSet won;
    private final Map<String, String> params;

    HostAgent(int id, String name, List<Vehicle> vehicles, TaskSet won, Map<String, String> params) {
        this.id = id;
        this.name = name;
        this.vehicles = Collections.unmodifiableList(vehicles);
        this.won = won;
        this.params = params;
    }

    void won(Task task) {
        won.add(task);
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
    public List<Vehicle> vehicles() {
        return vehicles;
    }

    @Override
    public TaskSet getTasks() {
        return TaskSet.copyOf(won);
    }

    @Override
    public <T> T readProperty(String key, Class<T> type, T defaultValue) {
        String value = params.get(key);
        if (value == null) {
            return defaultValue;
        }
        return convert(key, value, type);
    }

    @SuppressWarnings("unchecked")
    static <T> T convert(String key, String value, Class<T> type) {
        Class<?> boxed = box(type);
        String text = value.trim();
        try {
            if (boxed == String.class || boxed == Object.class) {
                return (T) value;
            }
            if (boxed == Integer.class || boxed == Long.class || boxed == Short.class || boxed == Byte.class) {
                long whole = integral(text);
                Object out; // not a ?: chain, which would promote every branch to Long
                if (boxed == Integer.class) {
                    out = Math.toIntExact(whole);
                } else if (boxed == Long.class) {
                    out = whole;
                } else if (boxed == Short.class) {
                    out = (short) whole;
                } else {
                    out = (byte) whole;
                }
                return (T) out;
            }
            if (boxed == Double.class) {
                return (T) Double.valueOf(text);
            }
            if (boxed == Float.class) {
                return (T) Float.valueOf(text);
            }
            if (boxed == Boolean.class) {
                return (T) Boolean.valueOf(text);
            }
            if (boxed == Character.class && text.length() == 1) {
                return (T) Character.valueOf(text.charAt(0));
            }
            for (Method m : boxed.getMethods()) {
                if (m.getName().equals("valueOf") && Modifier.isStatic(m.getModifiers())
                        && m.getParameterCount() == 1 && m.getParameterTypes()[0] == String.class
                        && boxed.isAssignableFrom(m.getReturnType())) {
                    return (T) m.invoke(null, text);
                }
            }
            Constructor<?> make = boxed.getConstructor(String.class);
            return (T) make.newInstance(text);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("parameter " + key + "=" + value + " is not a " + type.getSimpleName());
        }
    }

    private static long integral(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            double d = Double.parseDouble(text);
            if (d != Math.rint(d)) {
                throw e;
            }
            return (long) d;
        }
    }

    private static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        if (type == int.class) {
            return Integer.class;
        }
        if (type == long.class) {
            return Long.class;
        }
        if (type == double.class) {
            return Double.class;
        }
        if (type == float.class) {
            return Float.class;
        }
        if (type == boolean.class) {
            return Boolean.class;
        }
        if (type == short.class) {
            return Short.class;
        }
        if (type == byte.class) {
            return Byte.class;
        }
        return Character.class;
    }

    @Override
    public String toString() {
        return name;
    }
}
