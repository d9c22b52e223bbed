package bench;

/** A program that only starts and ends: what a JVM costs before an agent's first line runs (bench/platform_speed.py). */
public final class Start {
    private Start() {
    }

    public static void main(String[] args) {
    }
}
