package io.keyranger.edit;

import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.keys.KeyFormat;

/**
 * An edit found an entity other than it expected (changed, deleted or created by someone else, or by a job, since it
 * was read) and wrote nothing in that batch: the entity was left as it is. Undo and Redo say so in their own words.
 */
public final class ChangedSinceException extends KeyRangerException {
    /** What became of the entity since it was read. */
    public enum Change {
        CHANGED("changed"), DELETED("deleted"), CREATED("created");

        private final String word;

        Change(String word) {
            this.word = word;
        }

        /** "changed", "deleted" or "created". */
        public String word() {
            return word;
        }
    }

    private final Key key;
    private final Change change;

    ChangedSinceException(Key key, Change change, String message) {
        super(message);
        this.key = key;
        this.change = change;
    }

    /** The entity's key. */
    public Key key() {
        return key;
    }

    public Change change() {
        return change;
    }

    /** The entity as {@code KEY(Kind, 'name')}, for messages. */
    public String entity() {
        return KeyFormat.format(key);
    }
}
