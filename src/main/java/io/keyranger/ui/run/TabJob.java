package io.keyranger.ui.run;

import io.keyranger.datastore.Session;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobSpec;
import io.keyranger.job.ListedJob;
import io.keyranger.launch.JobRequest;
import io.keyranger.launch.Jobs;
import io.keyranger.mapper.Mappers;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.undo.JobUndo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the Run tab launches on a target: a new job, a job over several kinds, a resume or a take-over of a stored job
 * (started here, by another runner, or by a Beam pipeline), a revert; each through the application layer's door, the
 * command line's ({@link Jobs#launch(JobRequest, io.keyranger.job.JobListener, java.util.function.Consumer, java.util.function.Consumer)}: its checks, then the launch), which decides what to run. {@link #start} runs off the FX thread and returns once the job runs.
 *
 * @param jobId   the job's id
 * @param message what the tab says while it plans or waits
 * @param mapper  what runs, in the words of the toolbar's mapper summary ({@link JobForm#describe}): the toolbar
 *                names it while it runs, not the form's mapper (a revert is not the increment it takes back)
 * @param writes  whether it writes: what shows the data reads nothing again after a job that does not
 * @param kinds   the kinds it writes to ({@link Mappers#writtenKinds}: a copy writes its target kind), or null when
 *                not known here (a stored job the tab does not list, a copy to another namespace)
 * @param size    how many entities it reads in all, for its ETA, or -1 when not known here: the kind's count only
 *                for a job that reads every entity of the tab's kind, started or resumed (a server filter, a file,
 *                another kind or a revert's undo records read some other number)
 * @param keepsCounts whether it leaves every kind's count as it was ({@link Mappers#keepsCounts}): what shows
 *                the data need not count them again
 * @param starter what starts it, feeding the tab's listener
 */
record TabJob(String jobId, String message, String mapper, boolean writes, List<String> kinds, long size,
                 boolean keepsCounts, Starter starter) {
    /** Starts the job, feeding {@code feed}; {@code notices} hears what the user should know before it runs. */
    interface Starter {
        JobHandle start(JobListener feed, Consumer<String> notices);
    }

    JobHandle start(JobListener feed, Consumer<String> notices) {
        return starter.start(feed, notices);
    }

    static TabJob newJob(KindTarget t, JobSpec spec) {
        boolean imports = JobInput.of(spec).bringsEntitiesIn();
        return new TabJob(spec.jobId(), (imports ? "Importing into " : "Planning ") + t.kind() + "…",
                mapperOf(spec), writes(spec), written(spec, List.of(spec.kind())), sizeOf(t, spec),
                Mappers.keepsCounts(spec.mapper()),
                (feed, notices) -> StoredJobs.jobsOf(t).launch(JobRequest.job(spec), feed, message -> { }, notices));
    }

    /**
     * A new job whose kind was just backed up by a managed export: {@code backup}, the folder that backup wrote (not
     * the newest in its backup folder, which another project's backup of a kind of that name may have written), is
     * recorded with the job before it starts, and handed to {@code where}.
     */
    static TabJob backedUp(KindTarget t, JobSpec spec, Path backup, Consumer<String> where) {
        return new TabJob(spec.jobId(), "Backed up; planning " + t.kind() + "…", mapperOf(spec), writes(spec),
                written(spec, List.of(spec.kind())), sizeOf(t, spec), Mappers.keepsCounts(spec.mapper()),
                (feed, notices) -> {
            String export = backup.toString();
            Jobs jobs = StoredJobs.jobsOf(t);
            jobs.recordBackup(spec.jobId(), export);
            where.accept(export);
            return jobs.launch(JobRequest.job(spec), feed, message -> { }, notices);
        });
    }

    /** One job over {@code kinds}, kind after kind, a tree per kind. */
    static TabJob group(KindTarget t, JobSpec spec, List<String> kinds) {
        return new TabJob(spec.jobId(), "Planning " + String.join(", ", kinds) + "…",
                mapperOf(spec) + " · over " + String.join(", ", kinds), writes(spec), written(spec, kinds), -1,
                Mappers.keepsCounts(spec.mapper()),
                (feed, notices) -> StoredJobs.jobsOf(t).launch(JobRequest.overKinds(spec, kinds), feed, message -> { },
                        notices));
    }

    /** A stored job, or a group of kinds, resumed; {@code listed}: the stored jobs the tab lists. */
    static TabJob resume(KindTarget t, String jobId, List<ListedJob> listed) {
        List<JobSpec> specs = stored(jobId, listed);
        return new TabJob(jobId, "Resuming " + jobId + "…", "resume · job " + jobId,
                specs.isEmpty() || specs.stream().anyMatch(TabJob::writes), written(specs), sizeOf(t, jobId, specs),
                keepsCounts(specs), (feed, notices) -> StoredJobs.jobsOf(t).launch(JobRequest.resume(jobId), feed,
                m -> { }, notices));
    }

    /**
     * Any request run on {@code session} (a migration's step, resumed or new, or its revert), named {@code label} on
     * the toolbar.
     */
    static TabJob of(Session session, JobRequest request, String label) {
        String id;
        boolean writes = true;
        List<String> kinds = null;
        if (request instanceof JobRequest.NewJob job) {
            id = job.spec().jobId();
            writes = writes(job.spec());
            kinds = written(job.spec(), job.severalKinds() ? job.kinds() : List.of(job.spec().kind()));
        } else if (request instanceof JobRequest.Resume resume) {
            id = resume.jobId();
        } else {
            id = ((JobRequest.Revert) request).settings().revertId();
        }
        return new TabJob(id, label + "…", label, writes, kinds, -1, false, (feed, notices) -> Jobs.on(session)
                .launch(request, feed, m -> { }, notices));
    }

    /**
     * A new job that reverts {@code jobId} (a job, or each kind's of a job over several kinds); {@code said} hears what
     * the revert says of the job before it starts (that it was left running and is now marked cancelled).
     */
    static TabJob revert(KindTarget t, String jobId, List<ListedJob> listed, Consumer<String> said) {
        JobRequest.Revert revert = JobRequest.revert(jobId, JobUndo.RevertSettings.defaults());
        return new TabJob(revert.settings().revertId(), "Reverting " + jobId + "…",
                JobForm.describe(Mappers.revertSpec(jobId, false).json().toString()), true,
                written(stored(jobId, listed)), -1, false, (feed, notices) -> StoredJobs.jobsOf(t).launch(revert, feed,
                said, notices));
    }

    /**
     * The entities a new job of {@code spec} reads (its "read" total when it ends): the tab's kind's count when the
     * job reads that whole kind, live (a condition checked on the client still reads every entity), else -1.
     */
    static long sizeOf(KindTarget t, JobSpec spec) {
        boolean wholeKind = spec.kind().equals(t.kind()) && spec.namespace().equals(t.namespace())
                && spec.mapper().where().isEmpty() && spec.mapper().query() == null
                && !JobInput.of(spec).bringsEntitiesIn();
        return wholeKind ? t.countOrUnknown() : -1;
    }

    /**
     * The entities stored job {@code jobId} reads in all, as {@link #sizeOf(KindTarget, JobSpec)} gives it for the
     * job started afresh: a resumed or taken-over job's totals go on from what it read before, so its ETA is that of
     * the rest. -1 for a job over several kinds ({@code specs} are its kinds'), or one the tab does not list.
     */
    private static long sizeOf(KindTarget t, String jobId, List<JobSpec> specs) {
        return specs.size() == 1 && specs.get(0).jobId().equals(jobId) ? sizeOf(t, specs.get(0)) : -1;
    }

    /** Whether stored jobs {@code specs} leave counts as they were: false when none is listed. */
    private static boolean keepsCounts(List<JobSpec> specs) {
        return !specs.isEmpty() && specs.stream().allMatch(s -> Mappers.keepsCounts(s.mapper()));
    }

    private static String mapperOf(JobSpec spec) {
        return JobForm.describe(spec.mapper().json().toString());
    }

    private static boolean writes(JobSpec spec) {
        return Mappers.template(spec.mapper().template()).writes();
    }

    /** The listed specs of stored job {@code jobId}: its own, or its kinds' for a job over several kinds. */
    private static List<JobSpec> stored(String jobId, List<ListedJob> listed) {
        return listed.stream().map(ListedJob::spec).filter(s -> s.jobId().equals(jobId) || jobId.equals(s.group()))
                .toList();
    }

    /** The kinds a job of {@code spec} over {@code kinds} writes to, or null when not known ({@link Mappers}). */
    private static List<String> written(JobSpec spec, List<String> kinds) {
        return Mappers.writtenKinds(spec.mapper(), kinds);
    }

    /**
     * The kinds stored jobs {@code specs} wrote to (what a resume writes, or a revert restores), or null when not
     * known: none listed, or one may have written elsewhere.
     */
    private static List<String> written(List<JobSpec> specs) {
        List<String> kinds = new ArrayList<>();
        for (JobSpec spec : specs) {
            List<String> of = written(spec, List.of(spec.kind()));
            if (of == null) {
                return null;
            }
            of.stream().filter(k -> !kinds.contains(k)).forEach(kinds::add);
        }
        return specs.isEmpty() ? null : List.copyOf(kinds);
    }

    /** At once ({@code now}), or once the holder's lease runs out, telling {@code waiting} meanwhile. */
    static TabJob takeOver(KindTarget t, String jobId, boolean now, List<ListedJob> listed,
                              Consumer<String> waiting) {
        List<JobSpec> specs = stored(jobId, listed);
        return new TabJob(jobId, "Taking over " + jobId + "…", "take over · job " + jobId,
                specs.isEmpty() || specs.stream().anyMatch(TabJob::writes), written(specs), sizeOf(t, jobId, specs),
                keepsCounts(specs), (feed, notices) -> StoredJobs.jobsOf(t).launch(JobRequest.takeOver(jobId, now),
                feed, waiting, notices));
    }
}
