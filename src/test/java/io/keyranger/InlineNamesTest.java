package io.keyranger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.keyranger.support.InlineNames;
import io.keyranger.support.InlineNames.Found;
import java.net.Proxy;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The app's main sources name their types by import (the check for beam/ and bench/ lives in those modules). */
class InlineNamesTest {
    @Test
    void mainSourcesWriteNoQualifiedNameInline() throws Exception {
        assertThat(InlineNames.under(Path.of("src/main/java")).stream().filter(f -> !f.allowed()))
                .as("inline qualified names (import them)").isEmpty();
    }

    @Test
    void findsAPlantedInlineName() {
        String source = """
                package io.keyranger.sample;

                import java.util.List;

                final class Sample {
                    private final java.util.Map<String, List<String>> byKind = new java.util.TreeMap<>();

                    @javax.annotation.processing.Generated("x")
                    Runnable tick() {
                        return java.lang.Thread::yield;
                    }
                }
                """;
        assertThat(InlineNames.in(source)).extracting(Found::line, Found::name, Found::allowed).containsExactly(
                tuple(6, "java.util.Map", false), tuple(6, "java.util.TreeMap", false),
                tuple(8, "javax.annotation.processing.Generated", false), tuple(10, "java.lang.Thread", false));
    }

    @Test
    void packageImportsCommentsAndStringsHoldNoInlineName() {
        String source = """
                package io.keyranger.sample;

                import java.util.List;
                import static java.util.Objects.requireNonNull;

                /** Uses {@link java.util.Map} and java.util.Set. */
                final class Sample {
                    // java.util.TreeMap in a comment
                    private static final String MAIN = "io.keyranger.cli.KeyRangerCli";
                    private static final char DOT = '.';
                    private static final String BLOCK = \"""
                            java.util.HashMap \\\""" still a string
                            \""";
                    /* java.util.Deque
                       java.util.Queue */
                    List<String> names;
                }
                """;
        assertThat(InlineNames.in(source)).isEmpty();
    }

    @Test
    void aNameMayStayQualifiedWhereAnotherTypeOfItsSimpleNameIsInScope() {
        String source = """
                package io.keyranger.sample;

                import com.google.cloud.Timestamp;

                final class Sample {
                    Object now(com.google.protobuf.Timestamp proto, java.lang.String text) {
                        return Timestamp.now();
                    }

                    record Key(String name) {
                    }

                    com.google.cloud.datastore.Key toKey() {
                        return null;
                    }
                }
                """;
        assertThat(InlineNames.in(source)).extracting(Found::name, Found::allowed).containsExactly(
                tuple("com.google.protobuf.Timestamp", true), tuple("java.lang.String", false),
                tuple("com.google.cloud.datastore.Key", true));
    }

    /** Inside a subclass of {@link Proxy}, {@code Type} means {@code Proxy.Type} (as {@code Key} inside Beam's DoFn). */
    @Test
    void aNameMayStayQualifiedWhereAnInheritedMemberTypeWouldShadowIt() {
        String source = """
                package io.keyranger;

                import java.net.Proxy;

                class InlineNamesTest {
                    abstract static class Shadowing extends Proxy {
                        abstract java.lang.reflect.Type type(java.lang.reflect.Method method);
                    }
                }
                """;
        assertThat(InlineNames.in(source)).extracting(Found::name, Found::allowed).containsExactly(
                tuple("java.lang.reflect.Type", true), tuple("java.lang.reflect.Method", false));
    }

    abstract static class Shadowing extends Proxy {
        Shadowing() {
            super(Proxy.Type.HTTP, null);
        }
    }
}
