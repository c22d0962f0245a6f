package io.keyranger.support;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Fully-qualified type names written inline in Java sources (outside package and import lines, comments and string
 * literals), which hide a file's dependencies from its reader. A name may stay qualified only where its simple name
 * means another type in that file: one it imports, declares, finds in its own package or {@code java.lang}, or inherits
 * as a member type (Beam's {@code DoFn.Key} inside a {@code DoFn}). Run as a program, it counts them over source folders
 * (the figures of issue 44).
 */
public final class InlineNames {
    private static final Pattern QUALIFIED = Pattern.compile(
            "(?<![\\w$.])((?:[a-z_][\\w$]*\\.)+)([A-Z][\\w$]*)");
    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+([\\w.]+)\\.(\\w+)\\s*;", Pattern.MULTILINE);
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z][\\w$]*)");
    private static final Pattern IMPORT_OR_PACKAGE = Pattern.compile("^\\s*(?:import|package)\\s");

    /** One inline name: where it is, the name as written, and whether the file may keep it (another type clashes). */
    public record Found(String file, int line, String name, boolean allowed) {
        @Override
        public String toString() {
            return file + ":" + line + " " + name;
        }
    }

    private final Set<String> roots;

    private InlineNames(Set<String> roots) {
        this.roots = roots;
    }

    /** The inline names of one source, a string (for tests): package roots are the JDK's and the source's imports'. */
    public static List<Found> in(String source) {
        Set<String> roots = jdkRoots();
        roots.addAll(importRoots(source));
        return new InlineNames(roots).scan("source", source, Set.of());
    }

    /** The inline names of every Java source under {@code folder} (a src/main/java), clashes included, by file. */
    public static List<Found> under(Path folder) throws IOException {
        Map<Path, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.put(file, Files.readString(file));
            }
        }
        Set<String> roots = jdkRoots();
        sources.values().forEach(s -> roots.addAll(importRoots(s)));
        InlineNames names = new InlineNames(roots);
        List<Found> found = new ArrayList<>();
        sources.forEach((file, source) -> found.addAll(names.scan(file.toString(), source,
                siblingTypes(file))));
        return found;
    }

    private List<Found> scan(String file, String source, Set<String> samePackage) {
        String code = code(source);
        Map<String, Set<String>> inScope = typesInScope(source, code, samePackage);
        List<Found> found = new ArrayList<>();
        String[] lines = code.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (IMPORT_OR_PACKAGE.matcher(lines[i]).find()) {
                continue;
            }
            Matcher m = QUALIFIED.matcher(lines[i]);
            while (m.find()) {
                String prefix = m.group(1);
                if (roots.contains(prefix.substring(0, prefix.indexOf('.')))) {
                    String name = prefix + m.group(2);
                    boolean allowed = inScope.getOrDefault(m.group(2), Set.of()).stream()
                            .anyMatch(other -> !other.equals(name));
                    found.add(new Found(file, i + 1, name, allowed));
                }
            }
        }
        return found;
    }

    /** The types a simple name can mean in this file, by simple name: full names (a member type by its own name). */
    private static Map<String, Set<String>> typesInScope(String source, String code, Set<String> samePackage) {
        Map<String, Set<String>> types = new HashMap<>();
        Matcher p = PACKAGE.matcher(source);
        String pkg = p.find() ? p.group(1) + "." : "";
        samePackage.forEach(t -> put(types, t, pkg + t));
        Matcher imports = IMPORT.matcher(source);
        while (imports.find()) {
            put(types, imports.group(2), imports.group(1) + "." + imports.group(2));
        }
        Matcher d = DECLARED.matcher(code);
        while (d.find()) {
            put(types, d.group(1), pkg + d.group(1));
            for (Class<?> member : inheritedMemberTypes(pkg + d.group(1))) {
                put(types, member.getSimpleName(), member.getName());
            }
        }
        Matcher q = QUALIFIED.matcher(code);
        while (q.find()) {
            if (isClass("java.lang." + q.group(2))) {
                put(types, q.group(2), "java.lang." + q.group(2));
            }
        }
        return types;
    }

    private static void put(Map<String, Set<String>> types, String simpleName, String fullName) {
        types.computeIfAbsent(simpleName, k -> new HashSet<>()).add(fullName);
    }

    /** The non-private member types that {@code className} (and its nested types) inherit, if it is on the class path. */
    private static Set<Class<?>> inheritedMemberTypes(String className) {
        Set<Class<?>> members = new HashSet<>();
        Class<?> top;
        try {
            top = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return members;
        }
        Deque<Class<?>> declared = new ArrayDeque<>(List.of(top));
        while (!declared.isEmpty()) {
            Class<?> c = declared.pop();
            declared.addAll(List.of(c.getDeclaredClasses()));
            Deque<Class<?>> supers = new ArrayDeque<>();
            if (c.getSuperclass() != null) {
                supers.add(c.getSuperclass());
            }
            supers.addAll(List.of(c.getInterfaces()));
            while (!supers.isEmpty()) {
                Class<?> s = supers.pop();
                for (Class<?> member : s.getDeclaredClasses()) {
                    if (!Modifier.isPrivate(member.getModifiers())) {
                        members.add(member);
                    }
                }
                if (s.getSuperclass() != null) {
                    supers.add(s.getSuperclass());
                }
                supers.addAll(List.of(s.getInterfaces()));
            }
        }
        return members;
    }

    private static boolean isClass(String name) {
        try {
            Class.forName(name, false, InlineNames.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static Set<String> siblingTypes(Path file) {
        Set<String> names = new HashSet<>();
        try (Stream<Path> siblings = Files.list(file.getParent())) {
            siblings.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".java"))
                    .filter(f -> !f.equals(file.getFileName().toString()))
                    .forEach(f -> names.add(f.substring(0, f.length() - ".java".length())));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return names;
    }

    /** The first segments of the JDK's packages (java, javax, jdk, com, org, ...). */
    private static Set<String> jdkRoots() {
        Set<String> roots = new HashSet<>();
        for (Module module : ModuleLayer.boot().modules()) {
            module.getPackages().forEach(p -> roots.add(p.split("\\.")[0]));
        }
        return roots;
    }

    private static Set<String> importRoots(String source) {
        Set<String> roots = new HashSet<>();
        Matcher m = Pattern.compile("^\\s*import\\s+(?:static\\s+)?([a-z_][\\w$]*)\\.", Pattern.MULTILINE)
                .matcher(source);
        while (m.find()) {
            roots.add(m.group(1));
        }
        return roots;
    }

    /** The source with comments, string and character literals and text blocks blanked (line breaks kept). */
    static String code(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int n = source.length();
        int i = 0;
        while (i < n) {
            int end;
            if (source.startsWith("//", i)) {
                end = source.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (source.startsWith("/*", i)) {
                end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                end = i + 3;
                while (end < n && !source.startsWith("\"\"\"", end)) {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(n, end + 3);
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                char quote = source.charAt(i);
                end = i + 1;
                while (end < n && source.charAt(end) != quote && source.charAt(end) != '\n') {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(n, end + 1);
            } else {
                out.append(source.charAt(i++));
                continue;
            }
            for (int j = i; j < end; j++) {
                out.append(source.charAt(j) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return out.toString();
    }

    /**
     * Counts over source folders: every inline name, and those no clash allows, with their lines and files.
     * {@code java -cp <test classes>:<classes>:<dependencies> io.keyranger.support.InlineNames FOLDER...}
     */
    public static void main(String... folders) throws IOException {
        List<Found> all = new ArrayList<>();
        long files = 0;
        for (String folder : folders) {
            all.addAll(under(Path.of(folder)));
            try (Stream<Path> walk = Files.walk(Path.of(folder))) {
                files += walk.filter(f -> f.toString().endsWith(".java")).count();
            }
        }
        List<Found> needless = all.stream().filter(f -> !f.allowed()).toList();
        System.out.printf("inline qualified names: %d in %d lines of %d of %d files%n", all.size(),
                all.stream().map(f -> f.file() + ":" + f.line()).distinct().count(),
                all.stream().map(Found::file).distinct().count(), files);
        System.out.printf("of which no clash allows: %d in %d lines of %d files%n", needless.size(),
                needless.stream().map(f -> f.file() + ":" + f.line()).distinct().count(),
                needless.stream().map(Found::file).distinct().count());
        needless.forEach(System.out::println);
    }
}
