package io.keyranger.executor.range;

import io.keyranger.job.JobReport;
import io.keyranger.job.NodeIds;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.ProblemExamples;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What went wrong in a job, from its range nodes and counter totals: the {@link JobReport} every runner gives. */
public final class RangeProblems {
    private RangeProblems() {
    }

    public static JobReport of(Collection<RangeNode> nodes, Map<String, Long> totals) {
        Map<String, List<RangeNode>> failed = new LinkedHashMap<>();
        for (RangeNode node : nodes) {
            if (node.status() == NodeStatus.FAILED) {
                failed.computeIfAbsent(node.lastError() == null ? "no reason recorded" : node.lastError(),
                        r -> new ArrayList<>()).add(node);
            }
        }
        List<JobReport.ReasonGroup> failures = new ArrayList<>();
        failed.forEach((reason, list) -> failures.add(new JobReport.ReasonGroup(reason, list.size(), list.stream()
                .sorted(Comparator.comparing(RangeNode::id, NodeIds::compare)).limit(JobReport.EXAMPLES)
                .map(n -> n.id() + " " + n.range()).toList(), list.stream().allMatch(RangeNode::failurePermanent))));
        failures.sort(Comparator.comparingLong(JobReport.ReasonGroup::count).reversed());
        List<JobReport.ReasonGroup> skips = new ArrayList<>();
        totals.forEach((counter, count) -> {
            if (counter.startsWith(JobReport.SKIPPED_PREFIX) && count > 0) {
                String category = counter.substring(JobReport.SKIPPED_PREFIX.length());
                List<String> examples = nodes.stream().sorted(Comparator.comparing(RangeNode::id, NodeIds::compare))
                        .flatMap(n -> n.problemExamples().stream())
                        .filter(e -> ProblemExamples.category(e).equals(category)).limit(JobReport.EXAMPLES)
                        .map(ProblemExamples::describe).toList();
                skips.add(new JobReport.ReasonGroup(category, count, examples, true));
            }
        });
        skips.sort(Comparator.comparingLong(JobReport.ReasonGroup::count).reversed());
        return new JobReport(failures, skips);
    }
}
