package logist.history;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;

import logist.agent.AgentStatistics;
import logist.task.Task;

/**
 * The history of a run, written as it happens to an XML file that {@code Parsers.parseHistory}
 * reads back: {@code <history name=...>} holding {@code <agent>}, {@code <vehicle>},
 * {@code <round>}, {@code <task>}, {@code <bid>}, {@code <event>} and {@code <stat>} elements.
 */
public class History {
    private final XMLWriter xml;

    public History(File file, String name) {
        try {
            xml = new XMLWriter(new OutputStreamWriter(new FileOutputStream(file), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new XMLWritingException("cannot write the history " + file + ": " + e.getMessage(), e);
        }
        xml.writeTag("history").writeAttribute("name", name);
    }

    public void addAgent(String name) {
        xml.writeTag("agent").writeAttribute("name", name).endTag();
    }

    public void addVehicle(String name) {
        xml.writeTag("vehicle").writeAttribute("name", name).endTag();
    }

    public void addRound(int round) {
        xml.writeTag("round").writeAttribute("number", round).endTag();
    }

    public void addTask(Task task) {
        xml.writeTag("task").writeAttribute("id", task.id).writeAttribute("pickup", task.pickupCity)
                .writeAttribute("delivery", task.deliveryCity).writeAttribute("weight", task.weight)
                .writeAttribute("reward", task.reward).endTag();
    }

    public void addBid(String agent, long bid) {
        xml.writeTag("bid").writeAttribute("agent", agent).writeAttribute("value", bid).endTag();
    }

    /** What vehicle {@code vehicle} (its index in the run) did. */
    public void addEvent(int vehicle, Event event) {
        xml.writeTag("event").writeAttribute("vehicle", vehicle).writeAttribute("time", event.time)
                .writeAttribute("action", event.action);
        if (event.city != null) {
            xml.writeAttribute("city", event.city);
        }
        if (event.task != null) {
            xml.writeAttribute("task", event.task.id);
        }
        xml.endTag();
    }

    /** Agent {@code agent}'s (its index) statistics. */
    public void addStat(int agent, AgentStatistics stats) {
        xml.writeTag("stat").writeAttribute("index", agent).writeAttribute("agent", stats.name())
                .writeAttribute("distance-units", stats.getTotalDistanceUnits())
                .writeAttribute("cost", stats.getTotalCost()).writeAttribute("reward", stats.getTotalReward())
                .writeAttribute("profit", stats.getTotalProfit()).writeAttribute("tasks", stats.getTotalTasks())
                .endTag();
    }

    public void flush() {
        xml.flush();
    }

    public void close() {
        xml.close();
    }
}
