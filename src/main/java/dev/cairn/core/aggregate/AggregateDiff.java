package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate.GroupChange;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.aggregate.Aggregate.Member;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** Two decompositions compared item by item (root bookkeeping ignored), the changes grouped by transaction group. */
final class AggregateDiff {

    private AggregateDiff() {
    }

    static List<GroupChange> diff(Items before, Items after) {
        var puts = new LinkedHashMap<String, List<Member>>();
        var deletes = new LinkedHashMap<String, List<Member>>();
        after.bySk().forEach((sk, member) -> {
            Member old = before.bySk().get(sk);
            if (old == null || !withoutBookkeeping(old.item()).equals(withoutBookkeeping(member.item()))) {
                puts.computeIfAbsent(member.group(), g -> new ArrayList<>()).add(member);
            }
        });
        before.bySk().forEach((sk, member) -> {
            if (!after.bySk().containsKey(sk)) {
                deletes.computeIfAbsent(member.group(), g -> new ArrayList<>()).add(member);
            }
        });
        var groups = new LinkedHashSet<String>();
        groups.addAll(after.groups());
        groups.addAll(before.groups());
        var changes = new ArrayList<GroupChange>();
        for (String group : groups) {
            List<Member> p = puts.getOrDefault(group, List.of());
            List<Member> d = deletes.getOrDefault(group, List.of());
            if (!p.isEmpty() || !d.isEmpty()) {
                changes.add(new GroupChange(group, p, d));
            }
        }
        return changes;
    }

    private static Map<String, AttributeValue> withoutBookkeeping(Map<String, AttributeValue> item) {
        var copy = new HashMap<>(item);
        copy.remove(TableSpec.VERSION);
        copy.remove(TableSpec.CREATED_AT);
        copy.remove(TableSpec.UPDATED_AT);
        AggregateTxn.rootAttributes().forEach(copy::remove);
        return copy;
    }
}
