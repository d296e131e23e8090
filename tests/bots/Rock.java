// A roshambo bot in Java, run as `java Rock.java` (Java 11's source-file mode): it always
// plays ROCK. The JVM reserves far more address space than it uses, which is what a memory
// limit must survive.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Rock {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        in.readLine();
        in.readLine();
        int rounds = Integer.parseInt(in.readLine().trim());
        for (int i = 0; i < rounds; i++) {
            System.out.println("ROCK");
            System.out.flush();
            String line = in.readLine();
            if (line == null || line.equals("RETIRE")) {
                break;
            }
        }
    }
}
