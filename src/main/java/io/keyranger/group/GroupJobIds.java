package io.keyranger.group;

import io.keyranger.KeyRangerException;
import io.keyranger.executor.store.JobStore;
import io.keyranger.group.KindGroup;
import io.keyranger.job.JobSpec;
import java.time.Instant;

/**
 * The ids of the jobs a job over several kinds runs, one a kind ({@code GROUP.N-Kind}), and which stored jobs count
 * as them: never two kinds under one id, and never another job's work counted as a kind's.
 */
public final class GroupJobIds {
    /** The longest job id ({@link JobSpec}). */
    private static final int MAX_ID = 100;

    private GroupJobIds() {
    }

    /**
     * The id of a group's job over its {@code index}-th kind: the whole group id, the position and as much of the kind
     * as fits in a job id. The group id and the position are never cut, so two kinds of a group never share an id.
     */
    public static String childId(String groupId, int index, String kind) {
        String prefix = groupId + "." + (index + 1) + "-";
        if (prefix.length() >= MAX_ID) {
            throw new KeyRangerException("Job id '" + groupId + "' is too long for a job over " + (index + 1)
                    + " kinds: each kind's job is named after it, so give a --job-id of at most "
                    + maxGroupIdLength(index + 1) + " characters.");
        }
        String safe = kind.replaceAll("[^A-Za-z0-9_-]", "_");
        return prefix + safe.substring(0, Math.min(safe.length(), MAX_ID - prefix.length()));
    }

    /** The longest group id whose kinds' job ids keep the whole group id, the position and a kind's first letter. */
    public static int maxGroupIdLength(int kinds) {
        return MAX_ID - (".-x".length() + String.valueOf(kinds).length());
    }

    /**
     * Checks the jobs already stored under the ids of a group's kinds, before anything of the group runs: each must be
     * that kind's job of this group, over its namespace with its mapper. A job of another group, a job of its own, or
     * one over another kind or with another mapper is refused by name: counting it as this kind's would skip the kind.
     *
     * @param created when the group was stored, or null for a group not stored yet (every child id must then be free)
     */
    public static void checkChildren(JobStore store, KindGroup.Plan plan, Instant created) {
        for (int i = 0; i < plan.kinds().size(); i++) {
            JobSpec child = plan.child(i);
            JobStore.StoredJob stored;
            try {
                stored = store.loadJob(child.jobId());
            } catch (KeyRangerException none) {
                continue;
            }
            String whose = stored.spec().group() != null ? "kind " + stored.spec().kind() + " of job " + stored.spec()
                    .group() : "its own job over " + stored.spec().kind();
            boolean ours = created != null && plan.groupId().equals(stored.spec().group())
                    && stored.spec().kind().equals(child.kind()) && stored.spec().namespace().equals(child.namespace())
                    && stored.spec().mapper().json().equals(child.mapper().json());
            if (!ours) {
                throw new KeyRangerException("Job id '" + child.jobId() + "', the id of this job's work on kind "
                        + child.kind() + ", is taken by another job (" + whose + ", " + stored.spec().mapper()
                        .template() + ", " + stored.status().name().toLowerCase() + "). Nothing was run: "
                        + (created == null ? "give another --job-id." : "resume that job on its own, or delete it "
                        + "with 'keyranger jobs', then resume this one."));
            }
        }
    }
}
