package io.keyranger.mapper;

import io.keyranger.mapper.cel.PropertyTypes;
import java.util.List;

/** A built-in template: its name, description, parameters and the two flags, and a builder of its mapper. */
abstract class BaseTemplate implements Template {
    private final String name;
    private final String description;
    private final List<Param> params;
    private final boolean writes;
    private final boolean idempotent;

    BaseTemplate(String name, String description, boolean writes, boolean idempotent, Param... params) {
        this.name = name;
        this.description = description;
        this.params = List.of(params);
        this.writes = writes;
        this.idempotent = idempotent;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public List<Param> params() {
        return params;
    }

    @Override
    public boolean writes() {
        return writes;
    }

    @Override
    public boolean idempotent() {
        return idempotent;
    }

    @Override
    public PageMapper create(MapperSpec spec) {
        return create(spec, PropertyTypes.unknown());
    }

    @Override
    public PageMapper create(MapperSpec spec, PropertyTypes types) {
        return build(new SpecReader(spec, this, types));
    }

    abstract PageMapper build(SpecReader reader);
}
