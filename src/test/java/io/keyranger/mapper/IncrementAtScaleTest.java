package io.keyranger.mapper;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.ValueType;
import io.keyranger.datastore.Cancellation;
import io.keyranger.testhooks.FaultInjector;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.demo.DemoDataset;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.executor.job.JobResult;
import io.keyranger.executor.job.JobSpec;
import io.keyranger.executor.job.JobStatus;
import io.keyranger.executor.job.RetryPolicy;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.executor.local.JobListener;
import io.keyranger.keys.KeyOrder;
import io.keyranger.support.Jobs;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The seed's problem at scale: "add $10 of free credit to every Account", with retries and all. */
class IncrementAtScaleTest {
    private static final int ACCOUNTS = 20_000;

    @Test
    void addsTenExactlyOnceToEveryNumericBalanceOf20000Accounts() throws Exception {
        var spec = SharedEmulator.freshProject("credit");
        Datastore datastore = SharedEmulator.connect(spec);
        new DemoSeeder(datastore).seed(ACCOUNTS, ProgressListener.NONE, Cancellation.NEVER);
        Map<Key, Entity> before = new HashMap<>();
        new DemoDataset(spec.projectId(), "", ACCOUNTS).defaultNamespaceEntities().stream()
                .filter(e -> e.getKey().getKind().equals("Account")).forEach(e -> before.put(e.getKey(), e));
        // make some balances awkward: text, missing, double
        List<Entity> awkward = new ArrayList<>();
        int i = 0;
        for (Entity e : before.values()) {
            Entity changed = switch (i++ % 200) {
                case 0 -> Entity.newBuilder(e).set("balance", "n/a").build();
                case 1 -> Entity.newBuilder(e).remove("balance").build();
                case 2 -> Entity.newBuilder(e).set("balance", DoubleValue.of(0.5)).build();
                default -> null;
            };
            if (changed != null) {
                awkward.add(changed);
            }
        }
        awkward.forEach(e -> before.put(e.getKey(), e));
        for (int from = 0; from < awkward.size(); from += 400) {
            datastore.put(awkward.subList(from, Math.min(awkward.size(), from + 400)).toArray(new Entity[0]));
        }
        Map<Key, Long> stagingBefore = balances(datastore, "staging");

        FaultInjector faults = new FaultInjector(0.02, 0.02, 0, 7);
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(faults.wrap(datastore), KeyOrder.EMULATOR,
                ServerLimits.EMULATOR, new RetryPolicy(30, 5, 200));
        JobSpec job = Jobs.over("Account").id("free-credit").mapper("increment", "property", "balance",
                "amount", 10).shards(16).workers(8).pageSize(200).spec();
        long started = System.nanoTime();
        JobResult result = executor.start(job, JobListener.NONE).await();
        System.out.printf("increment over %,d Accounts: %.1f s, %d ranges, depth %d, %d injected failures, %d lost "
                        + "commit answers%n", ACCOUNTS, (System.nanoTime() - started) / 1e9, result.ranges(),
                result.maxDepth(), faults.failures(), faults.lostCommits());

        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        long skipped = before.values().stream().filter(e -> !e.contains("balance")
                || e.getValue("balance").getType() == ValueType.STRING).count();
        assertThat(result.total("read")).isEqualTo(ACCOUNTS);
        assertThat(result.total("skipped")).isEqualTo(skipped);
        assertThat(result.total("written")).isEqualTo(ACCOUNTS - skipped);
        List<Entity> after = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build()).forEachRemaining(after::add);
        assertThat(after).hasSize(ACCOUNTS);
        for (Entity now : after) {
            Entity was = before.get(now.getKey());
            if (!was.contains("balance") || was.getValue("balance").getType() == ValueType.STRING) {
                assertThat(now).isEqualTo(was);
            } else if (was.getValue("balance").getType() == ValueType.DOUBLE) {
                assertThat(now.getDouble("balance")).isEqualTo(10.5);
            } else {
                assertThat(now.getLong("balance")).as("balance of %s", now.getKey()).isEqualTo(was.getLong("balance") + 10);
            }
        }
        assertThat(balances(datastore, "staging")).as("the other namespace is untouched").isEqualTo(stagingBefore);
    }

    private static Map<Key, Long> balances(Datastore datastore, String namespace) {
        Map<Key, Long> balances = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setNamespace(namespace).setKind("Account").build())
                .forEachRemaining(e -> balances.put(e.getKey(), e.getLong("balance")));
        return balances;
    }
}
