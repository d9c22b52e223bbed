package apdp.host;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;

import logist.agent.Agent;
import logist.behavior.AuctionBehavior;
import logist.behavior.CentralizedBehavior;
import logist.behavior.DeliberativeBehavior;
import logist.behavior.ReactiveBehavior;
import logist.task.TaskDistribution;
import logist.topology.Topology;

/**
 * The agent's behaviour, of the kind the platform gives it: the first of {@code ReactiveBehavior},
 * {@code DeliberativeBehavior}, {@code CentralizedBehavior} and {@code AuctionBehavior} its class
 * implements, tested in that order (the platform's {@code AgentImpl.forClass}). Each exercise's
 * requests reach it through the accessor of its kind, which refuses, saying what the agent is, a
 * request of another exercise.
 */
final class Behavior {

    /** The kinds, as the platform's {@code AgentImpl.Type} names them, and their interfaces, in its order. */
    static final String[] KINDS = {"reactive", "deliberative", "centralized", "auction"};
    private static final Class<?>[] INTERFACES = {
        ReactiveBehavior.class, DeliberativeBehavior.class, CentralizedBehavior.class, AuctionBehavior.class,
    };

    private final String className;
    private final Object instance;
    /** An index of {@link #KINDS}. */
    private final int kind;

    private Behavior(String className, Object instance, int kind) {
        this.className = className;
        this.instance = instance;
        this.kind = kind;
    }

    /**
     * A new instance of the class {@code className} (its constructor without arguments: the agent's
     * code runs), of the first kind its class implements. IllegalStateException when there is no such
     * class or it implements none.
     */
    static Behavior make(String className) throws Exception {
        Class<?> type;
        try {
            type = Class.forName(className, false, Behavior.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("no class " + className + " on the agent's class path");
        }
        int kind = kindOf(type);
        if (kind < 0) {
            throw new IllegalStateException(className + " implements none of logist.behavior's ReactiveBehavior, "
                    + "DeliberativeBehavior, CentralizedBehavior and AuctionBehavior");
        }
        Constructor<?> make;
        try {
            make = type.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(className + " has no constructor without arguments");
        }
        make.setAccessible(true);
        try {
            return new Behavior(className, make.newInstance(), kind);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw cause instanceof Exception ? (Exception) cause : new RuntimeException(cause);
        }
    }

    /** The index in {@link #KINDS} of the first behaviour {@code type} implements, -1 for none. */
    static int kindOf(Class<?> type) {
        for (int k = 0; k < INTERFACES.length; k++) {
            if (INTERFACES[k].isAssignableFrom(type)) {
                return k;
            }
        }
        return -1;
    }

    /** The kind: reactive, deliberative, centralized or auction. */
    String kind() {
        return KINDS[kind];
    }

    /** The behaviour's {@code setup}, which every kind has alike. */
    void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        switch (kind) {
            case 0:
                ((ReactiveBehavior) instance).setup(topology, distribution, agent);
                break;
            case 1:
                ((DeliberativeBehavior) instance).setup(topology, distribution, agent);
                break;
            case 2:
                ((CentralizedBehavior) instance).setup(topology, distribution, agent);
                break;
            default:
                ((AuctionBehavior) instance).setup(topology, distribution, agent);
        }
    }

    AuctionBehavior auction(String request) {
        return (AuctionBehavior) of(3, request);
    }

    ReactiveBehavior reactive(String request) {
        return (ReactiveBehavior) of(0, request);
    }

    DeliberativeBehavior deliberative(String request) {
        return (DeliberativeBehavior) of(1, request);
    }

    CentralizedBehavior centralized(String request) {
        return (CentralizedBehavior) of(2, request);
    }

    private Object of(int wanted, String request) {
        if (kind != wanted) {
            throw new IllegalStateException(className + " is a " + KINDS[kind] + " agent (logist.behavior."
                    + INTERFACES[kind].getSimpleName() + "), asked '" + request + "', a request of the " + KINDS[wanted]
                    + (wanted == 3 ? "" : " exercise") + ": it plays the " + KINDS[kind]
                    + (kind == 3 ? "" : " exercise") + " only");
        }
        return instance;
    }
}
