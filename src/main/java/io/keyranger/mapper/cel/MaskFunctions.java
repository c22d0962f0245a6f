package io.keyranger.mapper.cel;

import com.google.common.hash.Hashing;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The functions a masking transform needs, beside CEL's own ({@code null} nulls a value out):
 * <ul>
 *   <li>{@code keyed_hash(v)}: HMAC-SHA256 of {@code v} under the masking key, 32 hex digits: equal values stay equal
 *       (joins keep working), and without the key nobody can test a guess against it;</li>
 *   <li>{@code fake_name(v)} and {@code fake_email(v)}: a stable made-up name or address for {@code v} (typically
 *       {@code key}, or the real value), keyed by the masking key too.</li>
 * </ul>
 * The masking key comes from the environment ({@link #KEY_VARIABLE}) and is never stored: a job that calls any of them
 * is refused before it starts when none is set, and runs on the machine that has it (not on Beam's workers).
 */
public final class MaskFunctions {
    /** The environment variable that holds the masking key. */
    public static final String KEY_VARIABLE = "KEYRANGER_MASK_KEY";
    /** The system property read when the variable is not set (tests set it). */
    public static final String KEY_PROPERTY = "keyranger.mask.key";
    /** The function that needs the key. */
    public static final String KEYED_HASH = "keyed_hash";

    private static final List<String> FIRST = List.of("Ada", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Goran",
            "Hana", "Ines", "Jonas", "Kofi", "Lena", "Mateo", "Nora", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq");
    private static final List<String> LAST = List.of("Abbott", "Berg", "Costa", "Dahl", "Eze", "Fischer", "Grant",
            "Haddad", "Ito", "Jensen", "Kowalski", "Lund", "Moreau", "Novak", "Okafor", "Petrov", "Quist", "Rossi",
            "Sato", "Varga");

    private MaskFunctions() {
    }

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration(KEYED_HASH, CelOverloadDecl.newGlobalOverload("keyed_hash_dyn",
                        SimpleType.STRING, SimpleType.DYN)),
                CelFunctionDecl.newFunctionDeclaration("fake_name", CelOverloadDecl.newGlobalOverload("fake_name_dyn",
                        SimpleType.STRING, SimpleType.DYN)),
                CelFunctionDecl.newFunctionDeclaration("fake_email", CelOverloadDecl.newGlobalOverload(
                        "fake_email_dyn", SimpleType.STRING, SimpleType.DYN)));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("keyed_hash_dyn", Object.class, MaskFunctions::keyedHash),
                CelFunctionBinding.from("fake_name_dyn", Object.class, v -> {
                    long h = stable(v);
                    return FIRST.get((int) Long.remainderUnsigned(h, FIRST.size())) + " "
                            + LAST.get((int) Long.remainderUnsigned(h >>> 20, LAST.size()));
                }),
                CelFunctionBinding.from("fake_email_dyn", Object.class, v ->
                        "user-" + Long.toHexString(stable(v) & 0xFF_FFFF_FFFFL) + "@example.com"));
    }

    /** The masking key, from the environment or (tests) a system property; empty when neither is set. */
    public static Optional<byte[]> key() {
        String text = System.getenv(KEY_VARIABLE);
        if (text == null || text.isEmpty()) {
            text = System.getProperty(KEY_PROPERTY);
        }
        return text == null || text.isEmpty() ? Optional.empty()
                : Optional.of(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The masking functions, each of which needs the key. */
    public static final List<String> NAMES = List.of(KEYED_HASH, "fake_name", "fake_email");

    /**
     * The masking function an expression calls, or null: a job that calls one needs the key before it starts (unkeyed,
     * a made-up value of a guessable input could be checked against a guess).
     */
    public static String calls(String expression) {
        return NAMES.stream().filter(name -> expression.contains(name + "(")).findFirst().orElse(null);
    }

    private static String keyedHash(Object value) {
        byte[] key = key().orElseThrow(() -> new IllegalStateException(KEYED_HASH + " needs a masking key: set "
                + KEY_VARIABLE));
        return Hashing.hmacSha256(key).hashString(text(value), StandardCharsets.UTF_8).toString().substring(0, 32);
    }

    private static long stable(Object value) {
        byte[] key = key().orElseThrow(() -> new IllegalStateException("fake_name and fake_email need a masking "
                + "key: set " + KEY_VARIABLE));
        return Hashing.hmacSha256(key).hashString(text(value), StandardCharsets.UTF_8).asLong();
    }

    /** What is hashed: a key by its path (the same in every partition), any other value as text. */
    private static String text(Object value) {
        if (value instanceof Map<?, ?> map && map.containsKey("path") && map.containsKey("kind")) {
            return String.valueOf(map.get("path"));
        }
        return String.valueOf(value);
    }
}
