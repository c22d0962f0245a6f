package io.keyranger.job;

import com.google.cloud.datastore.Key;
import java.time.Instant;

/**
 * A range node as published to listeners: immutable, so a UI can keep the latest one per node.
 *
 * @param jobId            the job
 * @param id               the node id: "r3" for the fourth planned range, "r3.1" for its right child
 * @param parentId         the parent's id, or null for a planned range
 * @param depth            0 for planned ranges
 * @param start            the range's start key, or null
 * @param startInclusive   whether the start key itself belongs to the range
 * @param end              the range's end key (exclusive), or null
 * @param lastKey          the checkpoint: the last key this node committed, or null
 * @param status           its status
 * @param pages            pages committed in this node
 * @param entities         entities processed in this node
 * @param subtreeEntities  entities processed in this node and its descendants
 * @param retries          transient failures retried in this node
 * @param lastError        the last error, or null
 * @param startedAt        when it started running, or null
 * @param finishedAt       when it ended, or null
 */
public record NodeSnapshot(String jobId, String id, String parentId, int depth, Key start, boolean startInclusive,
                           Key end, Key lastKey, NodeStatus status,
                           long pages, long entities, long subtreeEntities, int retries, String lastError,
                           Instant startedAt, Instant finishedAt) {
}
