package logist;

/**
 * The platform's tournament score board (not public in the platform either): only its game and
 * result types are public. apdp keeps scores itself ({@code apdp tournament}); these are value
 * types an agent may meet in the platform's own files.
 */
final class ScoreBoard {
    private ScoreBoard() {
    }

    /** How a game ended for the first of its two agents. */
    public enum Result {
        WIN, DRAW, LOSE
    }

    /** One game between two agents: their scores and how it ended for the first. */
    public static class Game<T extends Comparable<T>> {
        public final T score1;
        public final T score2;
        public final Result result;

        /** A game of scores {@code score1} and {@code score2}: the higher score wins. */
        Game(T score1, T score2) {
            this.score1 = score1;
            this.score2 = score2;
            int c = score1.compareTo(score2);
            this.result = c > 0 ? Result.WIN : c < 0 ? Result.LOSE : Result.DRAW;
        }

        public boolean isWin() {
            return result == Result.WIN;
        }

        public boolean isLoss() {
            return result == Result.LOSE;
        }

        public boolean isDraw() {
            return result == Result.DRAW;
        }

        @Override
        public String toString() {
            return score1 + " : " + score2 + " (" + result + ")";
        }
    }
}
