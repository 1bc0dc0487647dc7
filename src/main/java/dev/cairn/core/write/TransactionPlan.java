package dev.cairn.core.write;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.key.PrimaryKey;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

import java.util.HashSet;
import java.util.List;
import java.util.UUID;

/**
 * The write actions of one TransactWriteItems call, validated before anything is sent: at most 100 actions,
 * at most 4 MB, never two actions on one item. The client request token is fixed at planning time, so a
 * retried send of the same plan is idempotent on DynamoDB's side (for ten minutes).
 */
public record TransactionPlan(List<WriteAction> actions, String token) {

    public static final int MAX_ACTIONS = 100;
    public static final long MAX_BYTES = 4L * 1024 * 1024;

    public TransactionPlan {
        actions = List.copyOf(actions);
        validate(actions);
    }

    public static TransactionPlan of(List<WriteAction> actions) {
        return new TransactionPlan(actions, UUID.randomUUID().toString());
    }

    public static long sizeOf(List<WriteAction> actions) {
        return actions.stream().mapToLong(WriteAction::estimatedSize).sum();
    }

    private static void validate(List<WriteAction> actions) {
        if (actions.isEmpty()) {
            throw new IllegalArgumentException("a transaction needs at least one action");
        }
        long size = sizeOf(actions);
        if (actions.size() > MAX_ACTIONS || size > MAX_BYTES) {
            throw new CairnException(new CairnError.TransactionTooLarge("a transaction holds at most " + MAX_ACTIONS
                    + " actions and 4 MB; this one has " + actions.size() + " actions and about " + size + " bytes",
                    actions.size(), size));
        }
        var seen = new HashSet<PrimaryKey>();
        for (WriteAction action : actions) {
            if (!seen.add(action.key())) {
                throw new CairnException(CairnError.ValidationFailed.of("transaction",
                        "two actions touch the same item " + action.key()));
            }
        }
    }

    public TransactWriteItemsRequest toRequest(String table) {
        return TransactWriteItemsRequest.builder()
                .transactItems(actions.stream().map(a -> a.toTransactItem(table)).toList())
                .clientRequestToken(token)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }
}
