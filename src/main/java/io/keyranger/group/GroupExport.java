package io.keyranger.group;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.StringValue;
import io.keyranger.executor.Engine;
import io.keyranger.executor.cells.PartFiles;
import io.keyranger.executor.store.JobStore;
import io.keyranger.files.LocalFileStore;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RetryPolicy;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The one export of a group of kinds: every kind's parts joined once, when the last kind is done. */
final class GroupExport {
    /** Set on the group's entity once its export is joined: the joined export's location. */
    private static final String JOINED = "exportJoined";

    private GroupExport() {
    }

    /**
     * The export of a group whose every kind is done, joined into its one output ({@link PartFiles#joinGroup}) and
     * recorded on the group, then every kind's parts removed: a group resumed after that joins nothing again, and one
     * stopped before joins the same export. Null when the group's mapper writes no file.
     */
    static Path join(Engine launcher, KindGroup.Plan plan) {
        PageMapper mapper = Mappers.create(plan.spec().mapper());
        if (mapper.outputFile() == null) {
            return null;
        }
        Datastore datastore = launcher.datastore();
        String project = datastore.getOptions().getProjectId();
        List<PartFiles> parts = new ArrayList<>();
        for (int i = 0; i < plan.kinds().size(); i++) {
            JobSpec child = plan.child(i);
            parts.add(PartFiles.of(LocalFileStore.INSTANCE, mapper, child.mapper(), child.jobId(), child.namespace(),
                    child.kind(), plan.groupId(), project));
        }
        Entity group = RetryPolicy.DEFAULT.call(() -> datastore.get(KindGroup.groupKey(datastore, plan.groupId())));
        String written = group.contains(JOINED) ? group.getString(JOINED) : null;
        if (written == null) {
            JobStore store = new JobStore(datastore);
            List<List<Entity>> ledgers = new ArrayList<>();
            for (int i = 0; i < plan.kinds().size(); i++) {
                String child = plan.child(i).jobId();
                ledgers.add(RetryPolicy.DEFAULT.call(() -> store.loadLedgers(child, datastore)));
            }
            String joined = PartFiles.joinGroup(parts, ledgers, launcher.order(), plan.groupId(), plan.created());
            RetryPolicy.DEFAULT.call(() -> datastore.put(Entity.newBuilder(group).set(JOINED, StringValue.newBuilder(
                    joined).setExcludeFromIndexes(true).build()).build()));
            written = joined;
        }
        parts.forEach(PartFiles::removeParts);
        return LocalFileStore.path(written);
    }
}
