package io.keyranger.logging;

import java.util.regex.Pattern;

/** Masks credentials in text bound for a log: PEM private keys and the values of token, key and secret fields. */
public final class Redaction {
    private static final Pattern PEM = Pattern.compile(
            "-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", Pattern.DOTALL);
    private static final Pattern SCHEME = Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=-]+");
    private static final Pattern FIELD = Pattern.compile("(?i)(private_key_id|private_key|access_token|refresh_token"
            + "|id_token|client_secret|authorization|password|api_key)(\\\\?[\"']?\\s*[:=]\\s*\\\\?[\"']?|\\s+)"
            + "(?!\\[REDACTED)[^\"'\\s,}&]+");

    private Redaction() {
    }

    public static String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String masked = PEM.matcher(text).replaceAll("[REDACTED KEY]");
        masked = SCHEME.matcher(masked).replaceAll("$1 [REDACTED]");
        return FIELD.matcher(masked).replaceAll("$1$2[REDACTED]");
    }
}
