package io.keyranger.launch;

import io.keyranger.group.KindGroup;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A launch made ready ({@link Jobs#prepare}): what the user must agree to, what was read to run it, and what to warn
 * of. {@link Jobs#launch} runs exactly what it says, deciding nothing again: a group or a job, these kinds.
 *
 * @param request           what was asked
 * @param consent           what the user must agree to, or null for a resume or take-over (agreed when it started)
 * @param kinds             the kinds it runs over, checked: a new job's (one, or each of a group's, listed); a resumed
 *                          group's; each reverted job's; empty for a resumed job of one kind
 * @param group             the stored group a resume runs on, or null when it resumes one job
 * @param reverted          the jobs a revert takes back (one, or each kind's of a group), else empty
 * @param warnings          what the user should know before it runs (parameters naming properties the kind lacks)
 * @param permanentFailures a resumed job's failures that retrying will not fix: the resume runs anyway (the cause may
 *                          be fixed by now), and fails the same way if it is not
 * @param leftOut           KeyRanger's bookkeeping kinds that a new job over every kind leaves out (not asked for)
 */
public record Preparation(JobRequest request, Consent consent, List<String> kinds, KindGroup.Plan group,
                          List<JobSpec> reverted, List<String> warnings,
                          List<JobReport.ReasonGroup> permanentFailures, List<String> leftOut) {
    public Preparation {
        kinds = List.copyOf(kinds);
        reverted = List.copyOf(reverted);
        warnings = List.copyOf(warnings);
        permanentFailures = List.copyOf(permanentFailures);
        leftOut = List.copyOf(leftOut);
    }

    /** A launch that leaves no bookkeeping kind out (all but a new job over every kind). */
    public Preparation(JobRequest request, Consent consent, List<String> kinds, KindGroup.Plan group,
                       List<JobSpec> reverted, List<String> warnings, List<JobReport.ReasonGroup> permanentFailures) {
        this(request, consent, kinds, group, reverted, warnings, permanentFailures, List.of());
    }

    /**
     * What every front end tells the user before it runs, one sentence each: the {@link #warnings}, then each of a
     * resumed job's {@link #permanentFailures} with what to do about it.
     */
    public List<String> notices() {
        List<String> notices = new ArrayList<>(warnings);
        String jobId = request instanceof JobRequest.Resume resume ? resume.jobId() : "the job";
        for (JobReport.ReasonGroup g : permanentFailures) {
            notices.add(String.format("%,d range%s of %s failed with: %s. Resuming retries them, but this reason does "
                    + "not go away by retrying: %s.", g.count(), g.count() == 1 ? "" : "s", jobId, g.reason(),
                    JobReport.adviceFor(g.reason())));
        }
        return List.copyOf(notices);
    }

    /** Whether it resumes a group of kinds (not one job). */
    public boolean resumesGroup() {
        return group != null;
    }
}
