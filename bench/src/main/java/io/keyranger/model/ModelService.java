package io.keyranger.model;

import com.google.datastore.v1.AllocateIdsRequest;
import com.google.datastore.v1.AllocateIdsResponse;
import com.google.datastore.v1.BeginTransactionResponse;
import com.google.datastore.v1.CommitRequest;
import com.google.datastore.v1.CommitResponse;
import com.google.datastore.v1.Entity;
import com.google.datastore.v1.EntityResult;
import com.google.datastore.v1.Key;
import com.google.datastore.v1.LookupRequest;
import com.google.datastore.v1.LookupResponse;
import com.google.datastore.v1.Mutation;
import com.google.datastore.v1.MutationResult;
import com.google.datastore.v1.PartitionId;
import com.google.datastore.v1.ReadOptions;
import com.google.datastore.v1.ReserveIdsResponse;
import com.google.datastore.v1.RollbackRequest;
import com.google.datastore.v1.RollbackResponse;
import com.google.datastore.v1.RunAggregationQueryRequest;
import com.google.datastore.v1.RunAggregationQueryResponse;
import com.google.datastore.v1.RunQueryRequest;
import com.google.datastore.v1.RunQueryResponse;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.rpc.Code;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Datastore methods the model serves, on its data, apart from the transport: lookups, queries, aggregations
 * (live, or as of a {@code read_time} in the window: {@link ModelVersions}), transactions (their read sets, checked
 * optimistically at commit), commits and ids. Keys arrive with the request's
 * project and database filled in, so one entity always has one key.
 */
final class ModelService {
    private final ModelData data;
    private final ModelQueries queries;
    private final Map<ByteString, Map<Key, Long>> transactions = new ConcurrentHashMap<>();
    private final AtomicLong txIds = new AtomicLong();

    ModelService(ModelData data) {
        this.data = data;
        this.queries = new ModelQueries(data);
    }

    /** Answers one call; a {@link ModelError} carries the status production would answer. */
    Message serve(String method, byte[] body) throws InvalidProtocolBufferException {
        return switch (method) {
            case "lookup" -> lookup(LookupRequest.parseFrom(body));
            case "runQuery" -> runQuery(RunQueryRequest.parseFrom(body));
            case "runAggregationQuery" -> aggregate(RunAggregationQueryRequest.parseFrom(body));
            case "beginTransaction" -> BeginTransactionResponse.newBuilder().setTransaction(begin()).build();
            case "commit" -> commit(CommitRequest.parseFrom(body));
            case "rollback" -> rollback(RollbackRequest.parseFrom(body));
            case "allocateIds" -> allocate(AllocateIdsRequest.parseFrom(body));
            case "reserveIds" -> ReserveIdsResponse.getDefaultInstance();
            default -> throw new ModelError(Code.UNIMPLEMENTED, "the model does not serve " + method);
        };
    }

    private ByteString begin() {
        ByteString id = ByteString.copyFromUtf8("tx-" + txIds.incrementAndGet());
        transactions.put(id, new ConcurrentHashMap<>());
        return id;
    }

    /** The read set of the transaction a read runs in, or null; begins one if asked to. */
    private Map<Key, Long> readSet(ReadOptions options, ByteString[] begun) {
        if (options.hasNewTransaction()) {
            begun[0] = begin();
            return transactions.get(begun[0]);
        }
        if (options.hasTransaction()) {
            Map<Key, Long> reads = transactions.get(options.getTransaction());
            if (reads == null) {
                throw new ModelError(Code.INVALID_ARGUMENT, "The transaction has expired or is not known.");
            }
            return reads;
        }
        return null;
    }

    private LookupResponse lookup(LookupRequest request) {
        ByteString[] begun = new ByteString[1];
        Map<Key, Long> reads = readSet(request.getReadOptions(), begun);
        long time = data.versions().readAt(request.getReadOptions());
        LookupResponse.Builder response = LookupResponse.newBuilder().setReadTime(ModelQueries.readTime(time));
        for (Key requested : request.getKeysList()) {
            Key key = normalize(requested, request.getProjectId(), request.getDatabaseId());
            Stored stored = data.get(key, time);
            long version = stored == null ? 0 : stored.version();
            if (reads != null) {
                reads.putIfAbsent(key, version);
            }
            if (stored == null) {
                response.addMissing(EntityResult.newBuilder().setEntity(Entity.newBuilder().setKey(key))
                        .setVersion(data.currentVersion()));
            } else {
                response.addFound(EntityResult.newBuilder().setEntity(stored.entity()).setVersion(version));
            }
        }
        if (begun[0] != null) {
            response.setTransaction(begun[0]);
        }
        return response.build();
    }

    private RunQueryResponse runQuery(RunQueryRequest request) {
        if (!request.hasQuery()) {
            throw new ModelError(Code.UNIMPLEMENTED, "the model answers structured queries, not GQL");
        }
        ByteString[] begun = new ByteString[1];
        Map<Key, Long> reads = readSet(request.getReadOptions(), begun);
        PartitionId partition = partition(request.getPartitionId(), request.getProjectId(), request.getDatabaseId());
        long time = data.versions().readAt(request.getReadOptions());
        RunQueryResponse.Builder response = RunQueryResponse.newBuilder().setBatch(queries.run(partition,
                request.getQuery(), time, row -> {
                    if (reads != null) {
                        reads.putIfAbsent(row.entity().getKey(), row.version());
                    }
                }));
        if (begun[0] != null) {
            response.setTransaction(begun[0]);
        }
        return response.build();
    }

    private RunAggregationQueryResponse aggregate(RunAggregationQueryRequest request) {
        if (!request.hasAggregationQuery()) {
            throw new ModelError(Code.UNIMPLEMENTED, "the model answers structured aggregations, not GQL");
        }
        PartitionId partition = partition(request.getPartitionId(), request.getProjectId(), request.getDatabaseId());
        long time = data.versions().readAt(request.getReadOptions());
        return RunAggregationQueryResponse.newBuilder()
                .setBatch(queries.aggregate(partition, request.getAggregationQuery(), time)).build();
    }

    private CommitResponse commit(CommitRequest request) {
        Map<Key, Long> reads = Map.of();
        if (request.getMode() == CommitRequest.Mode.TRANSACTIONAL && request.hasTransaction()) {
            reads = transactions.remove(request.getTransaction());
            if (reads == null) {
                throw new ModelError(Code.INVALID_ARGUMENT, "The transaction has expired or is not known.");
            }
        }
        List<Mutation> mutations = new ArrayList<>(request.getMutationsCount());
        for (Mutation m : request.getMutationsList()) {
            mutations.add(normalize(m, request.getProjectId(), request.getDatabaseId()));
        }
        List<MutationResult> results = data.commit(mutations, reads);
        CommitResponse.Builder response = CommitResponse.newBuilder().addAllMutationResults(results)
                .setIndexUpdates(mutations.size());
        return response.setCommitTime(results.isEmpty() ? ModelVersions.timestamp(data.currentVersion())
                : results.get(0).getUpdateTime()).build();
    }

    private RollbackResponse rollback(RollbackRequest request) {
        transactions.remove(request.getTransaction());
        return RollbackResponse.getDefaultInstance();
    }

    private AllocateIdsResponse allocate(AllocateIdsRequest request) {
        AllocateIdsResponse.Builder response = AllocateIdsResponse.newBuilder();
        for (Key key : request.getKeysList()) {
            response.addKeys(data.allocate(normalize(key, request.getProjectId(), request.getDatabaseId())));
        }
        return response.build();
    }

    private static PartitionId partition(PartitionId given, String project, String database) {
        return given.toBuilder().setProjectId(project).setDatabaseId(database).build();
    }

    private static Key normalize(Key key, String project, String database) {
        if (key.getPartitionId().getProjectId().equals(project)
                && key.getPartitionId().getDatabaseId().equals(database)) {
            return key;
        }
        return key.toBuilder().setPartitionId(partition(key.getPartitionId(), project, database)).build();
    }

    private static Mutation normalize(Mutation m, String project, String database) {
        return switch (m.getOperationCase()) {
            case INSERT -> m.toBuilder().setInsert(m.getInsert().toBuilder()
                    .setKey(normalize(m.getInsert().getKey(), project, database))).build();
            case UPDATE -> m.toBuilder().setUpdate(m.getUpdate().toBuilder()
                    .setKey(normalize(m.getUpdate().getKey(), project, database))).build();
            case UPSERT -> m.toBuilder().setUpsert(m.getUpsert().toBuilder()
                    .setKey(normalize(m.getUpsert().getKey(), project, database))).build();
            case DELETE -> m.toBuilder().setDelete(normalize(m.getDelete(), project, database)).build();
            default -> m;
        };
    }
}
