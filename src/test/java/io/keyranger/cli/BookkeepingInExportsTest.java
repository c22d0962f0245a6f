package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.UndoKept;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KeyRanger's bookkeeping and undo kinds in whole-database exports: its own managed export of every kind leaves them
 * out unless asked and says how many it left out; export-info sets them apart in any export, one the emulator's own
 * {@code :export} wrote included. The legacy emulator only: the Firestore one has no {@code :export} and cannot list
 * every kind.
 */
class BookkeepingInExportsTest {
    private static final int ACCOUNTS = 60;

    @TempDir
    Path dir;

    private ConnectionSpec conn;
    private Datastore datastore;
    private InProcessCli cli;

    @BeforeEach
    void seedAndRunAJobThatKeepsUndo() throws Exception {
        conn = SharedEmulator.freshProject("bookkeeping");
        datastore = SharedEmulator.connect(conn);
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= ACCOUNTS; i++) {
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Acct").newKey(i)).set("balance", i)
                    .build());
        }
        for (int i = 1; i <= 5; i++) {
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Org").newKey("org-" + i)).build());
        }
        SharedEmulator.putAll(datastore, entities);
        cli = new InProcessCli(dir, conn);
        ok(cli.run("run", "--kind", "Acct", "--job-id", "inc", "--mapper",
                cli.mapper("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1}").toString()));
    }

    private static InProcessCli.Result ok(InProcessCli.Result result) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        return result;
    }

    /** KeyRanger's bookkeeping kinds in the database with their counts, as the emulator answers. */
    private Map<String, Long> bookkeepingCounts() {
        Map<String, Long> counts = new TreeMap<>();
        for (String kind : new DatastoreGateway(datastore, ServerType.EMULATOR).kinds("", true)) {
            if (BookkeepingKinds.isBookkeeping(kind)) {
                long n = 0;
                for (var keys = datastore.run(Query.newKeyQueryBuilder().setKind(kind).build()); keys.hasNext();
                     keys.next()) {
                    n++;
                }
                counts.put(kind, n);
            }
        }
        return counts;
    }

    @Test
    void exportInfoListsUserKindsFirstThenKeyRangersBookkeepingApartInAnExportTheEmulatorWrote() throws Exception {
        Map<String, Long> bookkeeping = bookkeepingCounts();
        assertThat(bookkeeping).containsKeys("_KeyRangerUndo.inc", "_KeyRangerJob");
        assertThat(UndoKept.targets(datastore, "inc")).hasSize(ACCOUNTS);
        Path export = EmulatorExports.export(conn, dir, null);

        String out = ok(cli.offline("export-info", export.toString())).out();
        List<String> lines = out.lines().toList();
        int heading = lines.indexOf("KeyRanger bookkeeping (its jobs, ledgers, counters and undo records; not user "
                + "data):");
        assertThat(heading).as(out).isPositive();
        List<String> userRows = lines.subList(lines.indexOf(lines.stream().filter(l -> l.startsWith("NAMESPACE"))
                .findFirst().orElseThrow()) + 1, heading);
        assertThat(userRows).as(out).hasSize(2).allMatch(l -> !l.contains("_KeyRanger"));
        assertThat(userRows.get(0)).containsPattern("\\(default\\)\\s+Acct\\s+" + ACCOUNTS + "$");
        List<String> bookkeepingRows = lines.subList(heading + 1, heading + 1 + bookkeeping.size());
        bookkeeping.forEach((kind, count) -> assertThat(bookkeepingRows).as(out).anyMatch(l -> l.matches(
                "\\(default\\)\\s+" + kind.replace(".", "\\.") + "\\s+" + String.format("%,d", count))));
        long kept = bookkeeping.values().stream().mapToLong(Long::longValue).sum();
        assertThat(out).contains(String.format("Of these, %,d entities in %d kinds are KeyRanger's bookkeeping; user "
                + "data: %d entities in 2 kinds.", kept, bookkeeping.size(), ACCOUNTS + 5));
    }

    @Test
    void keyRangersOwnManagedExportOfEveryKindLeavesBookkeepingOutUnlessAsked() throws Exception {
        Map<String, Long> counts = bookkeepingCounts();
        int bookkeeping = counts.size();
        Path plain = dir.resolve("plain");
        InProcessCli.Result left = ok(cli.run("run", "--all-kinds", "--job-id", "export-plain", "--mapper",
                cli.mapper("{\"template\":\"export\",\"format\":\"managed\",\"file\":\"" + plain + "\"}").toString()));
        assertThat(left.err()).contains("Left out " + bookkeeping + " KeyRanger bookkeeping kinds (jobs, ledgers, "
                + "counters, undo records: not user data); --include-bookkeeping exports them too.");
        assertThat(exportedKinds(plain)).containsOnlyKeys("Acct", "Org").containsEntry("Acct", (long) ACCOUNTS);

        Path all = dir.resolve("all");
        InProcessCli.Result asked = ok(cli.run("run", "--all-kinds", "--include-bookkeeping", "--job-id", "export-all",
                "--mapper", cli.mapper("{\"template\":\"export\",\"format\":\"managed\",\"file\":\"" + all + "\"}")
                        .toString()));
        assertThat(asked.err()).doesNotContain("Left out");
        Map<String, Long> exported = exportedKinds(all);
        assertThat(exported).containsEntry("Acct", (long) ACCOUNTS).containsEntry("_KeyRangerUndo.inc",
                counts.get("_KeyRangerUndo.inc"));
        assertThat(exported.keySet().stream().filter(BookkeepingKinds::isBookkeeping)).hasSizeGreaterThanOrEqualTo(
                bookkeeping);

        InProcessCli.Result oneKind = cli.run("run", "--kind", "Acct", "--include-bookkeeping", "--mapper",
                cli.mapper("{\"template\":\"export\",\"format\":\"managed\",\"file\":\"" + dir.resolve("one")
                        + "\"}").toString());
        assertThat(oneKind.exitCode()).isEqualTo(1);
        assertThat(oneKind.err()).startsWith("keyranger: --include-bookkeeping goes with an export over --all-kinds");
        InProcessCli.Result count = cli.run("run", "--all-kinds", "--include-bookkeeping", "--mapper",
                cli.mapper("{\"template\":\"count\"}").toString());
        assertThat(count.exitCode()).isEqualTo(1);
        assertThat(count.err()).contains("--include-bookkeeping goes with an export over --all-kinds");
    }

    /** Every kind in the export below {@code folder} (a job over several kinds writes one), by export-info. */
    private Map<String, Long> exportedKinds(Path folder) throws Exception {
        Map<String, Long> kinds = new TreeMap<>();
        List<Path> exports;
        try (Stream<Path> each = Files.list(folder)) {
            exports = each.filter(Files::isDirectory).toList();
        }
        assertThat(exports).hasSize(1);
        for (Path export : exports) {
            String out = ok(cli.offline("export-info", export.toString())).out();
            out.lines().filter(l -> l.startsWith("(default)")).forEach(l -> {
                String[] cells = l.trim().split("\\s+");
                kinds.merge(cells[1], Long.parseLong(cells[2].replace(",", "")), Long::sum);
            });
        }
        return kinds;
    }
}
