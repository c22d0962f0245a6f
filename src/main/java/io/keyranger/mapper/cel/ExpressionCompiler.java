package io.keyranger.mapper.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelBuilder;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelMacro;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Compiles a spec's CEL expressions once per mapper. Variables: each property whose name is an identifier (not a CEL
 * reserved word or type name, and not {@code props} or {@code key}) by its name; {@code props}, every property by
 * name ({@code props['odd name']}); {@code key}, the entity's key ({@link CelValues}). {@code has(balance)} tests
 * whether the entity has the property (standard CEL only allows {@code has(props.balance)}, which works too).
 * Declared types come from {@link PropertyTypes}.
 */
public final class ExpressionCompiler {
    /** What an expression must give. */
    public enum Result { ANY, BOOL }

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> NOT_VARIABLES = Set.of("true", "false", "null", "in", "as", "break", "const",
            "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return",
            "var", "void", "while", "int", "uint", "double", "bool", "string", "bytes", "list", "map", "type",
            "null_type", "dyn", EntityVariables.PROPS, EntityVariables.KEY);
    private static final Cel BASE = base();

    private ExpressionCompiler() {
    }

    /** Whether a property is reachable by its own name (otherwise only as {@code props['name']}). */
    public static boolean isVariableName(String property) {
        return IDENTIFIER.matcher(property).matches() && !NOT_VARIABLES.contains(property);
    }

    /**
     * Compiles {@code source}, named {@code name} in messages, against {@code types}; an {@link ExpressionException}
     * names the expression, the line and column, and what is wrong.
     */
    public static EntityExpression compile(String name, String source, PropertyTypes types, Result result) {
        if (source.isBlank()) {
            throw new ExpressionException(name, 0, 0, "is empty", "");
        }
        CelValidationResult parsed = BASE.parse(source);
        if (parsed.hasError()) {
            throw error(name, source, parsed.getErrors(), types);
        }
        CelAbstractSyntaxTree ast = parsedAst(parsed);
        CelBuilder builder = BASE.toCelBuilder()
                .addVar(EntityVariables.PROPS, MapType.create(SimpleType.STRING, SimpleType.DYN))
                .addVar(EntityVariables.KEY, MapType.create(SimpleType.STRING, SimpleType.DYN));
        for (String identifier : identifiers(ast.getExpr())) {
            if (isVariableName(identifier)) {
                types.type(identifier).ifPresent(type -> builder.addVar(identifier, type));
            }
        }
        Cel cel = builder.build();
        CelValidationResult checked = cel.check(ast);
        if (checked.hasError()) {
            throw error(name, source, checked.getErrors(), types);
        }
        CelAbstractSyntaxTree typed = parsedAst(checked);
        CelKind kind = typed.getResultType().kind();
        if (result == Result.BOOL && kind != CelKind.BOOL && kind != CelKind.DYN) {
            throw new ExpressionException(name, 0, 0, "must be true or false, but it gives "
                    + typed.getResultType().name(), "");
        }
        try {
            return new EntityExpression(name, source, cel.createProgram(typed));
        } catch (CelEvaluationException e) {
            throw new ExpressionException(name, 0, 0, e.getMessage(), "");
        }
    }

    private static CelAbstractSyntaxTree parsedAst(CelValidationResult result) {
        try {
            return result.getAst();
        } catch (CelValidationException e) {
            throw new IllegalStateException("CEL reported no error but gave no tree", e);
        }
    }

    private static ExpressionException error(String name, String source, List<CelIssue> issues, PropertyTypes types) {
        CelIssue first = issues.get(0);
        int line = first.getSourceLocation().getLine();
        int column = first.getSourceLocation().getColumn() + 1;
        String problem = first.getMessage().replace(" (in container '')", "");
        if (types.known() && problem.startsWith("undeclared reference to '")) {
            problem += ": the kind has no such property (none in its metadata or in the sampled entities)";
        }
        String snippet = "";
        if (line > 0) {
            String[] lines = source.split("\n", -1);
            String text = line <= lines.length ? lines[line - 1] : "";
            snippet = "  | " + text + "\n  | " + ".".repeat(Math.max(0, column - 1)) + "^";
        }
        return new ExpressionException(name, Math.max(line, 0), line > 0 ? column : 0, problem, snippet);
    }

    /** The identifiers an expression reads, other than comprehension variables. */
    private static Set<String> identifiers(CelExpr root) {
        Set<String> found = new LinkedHashSet<>();
        Set<String> bound = new LinkedHashSet<>();
        List<CelExpr> todo = new ArrayList<>(List.of(root));
        while (!todo.isEmpty()) {
            CelExpr expr = todo.remove(todo.size() - 1);
            switch (expr.getKind()) {
                case IDENT -> found.add(expr.ident().name());
                case SELECT -> todo.add(expr.select().operand());
                case CALL -> {
                    expr.call().target().ifPresent(todo::add);
                    todo.addAll(expr.call().args());
                }
                case LIST -> todo.addAll(expr.list().elements());
                case MAP -> expr.map().entries().forEach(e -> {
                    todo.add(e.key());
                    todo.add(e.value());
                });
                case STRUCT -> expr.struct().entries().forEach(e -> todo.add(e.value()));
                case COMPREHENSION -> {
                    CelExpr.CelComprehension c = expr.comprehension();
                    bound.add(c.iterVar());
                    bound.add(c.iterVar2());
                    bound.add(c.accuVar());
                    todo.addAll(List.of(c.iterRange(), c.accuInit(), c.loopCondition(), c.loopStep(), c.result()));
                }
                default -> { }
            }
        }
        found.removeAll(bound);
        return found;
    }

    private static Cel base() {
        List<CelStandardMacro> macros = new ArrayList<>(CelStandardMacro.STANDARD_MACROS);
        macros.remove(CelStandardMacro.HAS);
        return CelFactory.standardCelBuilder()
                .setOptions(CelOptions.current().enableHeterogeneousNumericComparisons(true)
                        .enableTimestampEpoch(true).comprehensionMaxIterations(100_000).build())
                .setStandardMacros(macros)
                .addFunctionDeclarations(MaskFunctions.declarations())
                .addFunctionBindings(MaskFunctions.bindings())
                .addMacros(CelMacro.newGlobalMacro("has", 1, (factory, target, args) -> {
                    CelExpr arg = args.get(0);
                    return Optional.of(switch (arg.getKind()) {
                        case IDENT -> factory.newSelect(factory.newIdentifier(EntityVariables.PROPS),
                                arg.ident().name(), true);
                        case SELECT -> factory.newSelect(arg.select().operand(), arg.select().field(), true);
                        default -> factory.reportError("has() takes a property, e.g. has(balance) or "
                                + "has(props.balance)");
                    });
                }))
                .build();
    }
}
