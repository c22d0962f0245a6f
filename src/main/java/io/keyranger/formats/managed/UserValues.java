package io.keyranger.formats.managed;

import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.StringValue;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;

/**
 * App Engine's user value: in v3 a group of its own (9 email, 10 auth domain, 18 gaia id, 19 obfuscated gaia id,
 * 21 federated identity, 22 federated provider); in v1 an embedded entity with meaning 20 whose unindexed properties
 * are {@code email}, {@code auth_domain}, {@code internal_id}, {@code user_id}, {@code federated_identity} and
 * {@code federated_provider}, as Google's conversion names them.
 */
final class UserValues {
    private UserValues() {
    }

    /** The v1 entity of a v3 user group (read up to its end). */
    static FullEntity<IncompleteKey> read(CodedInputStream in) throws IOException {
        FullEntity.Builder<IncompleteKey> user = FullEntity.newBuilder();
        long gaia = 0;
        while (true) {
            int tag = in.readTag();
            if (tag == 0 || WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_END_GROUP) {
                break;
            }
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 9 -> user.set("email", text(in));
                case 10 -> user.set("auth_domain", text(in));
                case 18 -> gaia = in.readInt64();
                case 19 -> user.set("user_id", text(in));
                case 21 -> user.set("federated_identity", text(in));
                case 22 -> user.set("federated_provider", text(in));
                default -> in.skipField(tag);
            }
        }
        if (gaia != 0) {
            user.set("internal_id", LongValue.newBuilder(gaia).setExcludeFromIndexes(true).build());
        }
        return user.build();
    }

    private static StringValue text(CodedInputStream in) throws IOException {
        return StringValue.newBuilder(in.readStringRequireUtf8()).setExcludeFromIndexes(true).build();
    }

    /** The v3 user group (field {@code field}) of a v1 user entity. */
    static void write(CodedOutputStream out, int field, FullEntity<?> user) throws IOException {
        out.writeTag(field, WireFormat.WIRETYPE_START_GROUP);
        out.writeString(9, string(user, "email"));
        out.writeString(10, string(user, "auth_domain"));
        out.writeInt64(18, user.contains("internal_id") ? user.getLong("internal_id") : 0);
        for (String[] named : new String[][] {{"user_id", "19"}, {"federated_identity", "21"},
                {"federated_provider", "22"}}) {
            if (user.contains(named[0])) {
                out.writeString(Integer.parseInt(named[1]), user.getString(named[0]));
            }
        }
        out.writeTag(field, WireFormat.WIRETYPE_END_GROUP);
    }

    private static String string(FullEntity<?> user, String name) throws IOException {
        if (!user.contains(name)) {
            throw new IOException("a user value (meaning 20) has no " + name);
        }
        return user.getString(name);
    }
}
