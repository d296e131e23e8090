// SdkReferee: bench/sdk_referee.c in Java, read as the game-engine SDK reads: the same game,
// options and output, for bench/sdk.sh, to show what a JVM's start-up costs a short game.
//
// Usage: java [JVM options] -cp DIR SdkReferee [--turns N] [--first-ms MS] [--turn-ms MS]
//             -p1 CMD -p2 CMD [-d seed=N | -seed N] [-l LOG]
//
// As the SDK's CommandLinePlayerAgent and Agent: each -pK command is split on single spaces and
// started with Runtime.exec, both before the game; a player's answer is read one byte at a time
// while bytes are available, with Thread.sleep(1) while none are, until a line end (\n, \r; a \n
// right after a \r ends nothing), 10,000 bytes or the deadline; up to 4 KB of its stderr is read
// after each turn. It is a few classes of the JDK's own, not the SDK (no Guice, no Gson, no
// game-engine jars): a real referee loads far more classes before its first turn. Built by
// bench/sdk.sh with javac.
import java.io.FileWriter;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

public class SdkReferee {
    static final int MAX_ANSWER = 10_000;

    static final class Player {
        Process process;
        OutputStream in;
        InputStream out, err;
        int turns;
        boolean lastCr;
        long score;
    }

    public static void main(String[] args) throws Exception {
        long turns = 200, firstMs = 1000, turnMs = 100, seed = 0;
        boolean seeded = false;
        String[] cmds = new String[2];
        String log = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) throw new IllegalArgumentException("Unrecognized option: " + a);
            String v = args[++i];
            switch (a) {
                case "--turns": turns = Long.parseLong(v); break;
                case "--first-ms": firstMs = Long.parseLong(v); break;
                case "--turn-ms": turnMs = Long.parseLong(v); break;
                case "-p1": cmds[0] = v; break;
                case "-p2": cmds[1] = v; break;
                case "-seed": seed = Long.parseLong(v); seeded = true; break;
                case "-l": log = v; break;
                case "-d":
                    int at = v.indexOf("seed=");
                    if (at >= 0) {
                        seed = Long.parseLong(v.substring(at + 5).split("[ ,;]")[0].trim());
                        seeded = true;
                    }
                    break;
                default: throw new IllegalArgumentException("Unrecognized option: " + a);
            }
        }
        if (!seeded) seed = ProcessHandle.current().pid();
        Player[] ps = new Player[2];
        for (int i = 0; i < 2; i++) {
            Player p = new Player();
            p.process = Runtime.getRuntime().exec(cmds[i].split(" "));
            p.in = p.process.getOutputStream();
            p.out = p.process.getInputStream();
            p.err = p.process.getErrorStream();
            ps[i] = p;
        }
        byte[] buf = new byte[MAX_ANSWER];
        byte[] errBuf = new byte[4096];
        boolean over = false;
        for (long t = 0; t < turns && !over; t++) {
            Player p = ps[(int) (t % 2)];
            long timeout = p.turns++ == 0 ? firstMs : turnMs;
            String answer = null;
            try {
                p.in.write((t + " " + ps[0].score + " " + ps[1].score + "\n").getBytes(StandardCharsets.UTF_8));
                p.in.flush();
                answer = read(p, buf, timeout);
            } catch (java.io.IOException e) {
                // a closed pipe: a timeout, as the SDK sees it
            }
            if (p.err.available() > 0) p.err.read(errBuf, 0, errBuf.length);
            long value = 0;
            boolean ok = answer != null;
            if (ok) {
                try {
                    value = Long.parseLong(answer.trim());
                } catch (NumberFormatException e) {
                    ok = false;
                }
            }
            if (!ok) {
                System.err.println("SdkReferee: player " + (t % 2) + " failed at turn " + t);
                p.score = -1;
                over = true;
            } else {
                p.score += value;
            }
        }
        StringBuilder sb = new StringBuilder("League level: 1.\n");
        for (Player p : ps) sb.append(p.score).append('\n');
        sb.append("seed=").append(seed).append("\n\n");
        System.out.print(sb);
        System.out.flush();
        if (log != null) {
            try (FileWriter f = new FileWriter(log)) {
                f.write("{\"gameResult\":{\"scores\":{\"0\":" + ps[0].score + ",\"1\":" + ps[1].score + "}}}\n");
            }
        }
        for (Player p : ps) p.process.destroy();
        System.exit(0);
    }

    /** Agent.getOutput(1, timeout): one line, or null at the deadline or the end of its output. */
    static String read(Player p, byte[] tmp, long timeout) throws Exception {
        int offset = 0;
        long t0 = System.nanoTime();
        while (offset < MAX_ANSWER) {
            if (System.nanoTime() - t0 > timeout * 1_000_000L) return null;
            if (p.out.available() > 0) {
                int n = p.out.read(tmp, offset, 1);
                if (n < 0) return null;
                byte c = tmp[offset];
                boolean skip = c == '\n' && p.lastCr;
                p.lastCr = c == '\r';
                if (skip) continue;
                if (c == '\n' || c == '\r') return new String(tmp, 0, offset, StandardCharsets.UTF_8);
                offset += n;
            } else {
                Thread.sleep(1);
            }
        }
        return new String(tmp, 0, offset, StandardCharsets.UTF_8);
    }
}
