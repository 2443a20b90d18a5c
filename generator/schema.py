"""The deck format as JSON Schema (``paperproof schema``) and as the Markdown reference
``docs/decks.md``. Both come from the pydantic models, so they cannot drift from what the
loader accepts."""

from __future__ import annotations

import json
import types
import typing
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from .deck import DeckBase, deck_model
from .families import all_families, find_family
from .limits import limits_markdown
from .units import MAX_LENGTH_MM

SYMBOL_KEYS = frozenset({"icon", "icons", "symbol", "symbols"})
"""Keys whose strings name symbols of the library: the schema offers the names to complete
(and still accepts a name from a deck's own ``[art] icons`` folder)."""


def deck_schema(family: str | None = None) -> dict[str, Any]:
    """JSON Schema of one family's deck files, or of every family's (``oneOf``): what an
    editor reads to check and complete a deck (``parks-certificate``: the JSON Schema of
    parks certificates and solo move logs). TOML has no null, so optional keys offer only
    their real type; keys naming symbols list the library's symbol names; presets and names
    (features, colours, shapes) are enumerations from the models' ``Literal`` and enum
    types."""
    if family == "parks-certificate":
        from .families.parks.cert import certificate_schema

        return certificate_schema()
    if family is not None:
        fam = find_family(family)
        schema = deck_model(fam.name, fam.Params).model_json_schema()
        schema["properties"]["family"] = {"const": fam.name, "description": "The family."}
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        edited: dict[str, Any] = _for_editors(schema)
        return edited
    defs: dict[str, Any] = {}
    refs = []
    for fam in all_families():
        one = deck_schema(fam.name)
        defs.update(one.pop("$defs", {}))
        one.pop("$schema", None)
        name = one.get("title", fam.name)
        defs[name] = one
        refs.append({"$ref": f"#/$defs/{name}"})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "PaperProof deck",
        "oneOf": refs,
        "$defs": defs,
    }


def _for_editors(node: Any, key: str = "") -> Any:
    """The schema without ``null`` (an optional key is simply left out of a TOML file) and
    with the symbol names offered where a key names symbols."""
    if isinstance(node, list):
        return [_for_editors(x, key) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for k, v in node.items():
        if k == "properties" and isinstance(v, dict):
            out[k] = {name: _for_editors(spec, name) for name, spec in v.items()}
        elif k in ("anyOf", "oneOf") and isinstance(v, list):
            kept = [_for_editors(x) for x in v if x != {"type": "null"}]
            if len(kept) == 1 and isinstance(kept[0], dict):
                out.update(kept[0])
            else:
                out[k] = kept
        elif k == "default" and v is None:
            continue
        else:
            out[k] = _for_editors(v) if k != "$defs" else {
                name: _for_editors(d) for name, d in v.items()}
    if key in SYMBOL_KEYS:
        _offer_symbols(out)
    return out


def _offer_symbols(spec: dict[str, Any]) -> None:
    """``spec`` (a string, or a list of strings) completed with the library's symbols."""
    from .render.symbols import symbol_names

    names = {"anyOf": [{"enum": list(symbol_names())}, {"type": "string"}]}
    if spec.get("type") == "string":
        del spec["type"]
        spec.update(names)
    elif spec.get("type") == "array" and spec.get("items") == {"type": "string"}:
        spec["items"] = names


def _type_name(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        base = typing.get_args(annotation)[0]
        meta = typing.get_args(annotation)[1:]
        names = {getattr(getattr(m, "func", None), "__name__", "") for m in meta}
        if "parse_length" in names:
            return "length"
        if "_signed_length" in names:
            return "signed length"
        if "_colour" in names:
            return "colour"
        return _type_name(base)
    if origin is typing.Literal:
        return " \\| ".join(json.dumps(a) for a in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in typing.get_args(annotation)
                           if a is not type(None)) + (
            " (optional)" if type(None) in typing.get_args(annotation) else "")
    if origin in (list, tuple):
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        if not args:
            return "list"
        if origin is tuple and len(args) > 1 and Ellipsis not in typing.get_args(annotation):
            return "[" + ", ".join(_type_name(a) for a in args) + "]"
        return f"list of {_type_name(args[0])}"
    if origin is dict:
        k, v = typing.get_args(annotation)
        return f"table of {_type_name(v)}"
    if isinstance(annotation, type):
        if issubclass(annotation, BaseModel):
            return f"table ({annotation.__name__})"
        return {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}.get(
            annotation.__name__, annotation.__name__)
    return str(annotation)


def _field_type(field: Any) -> str:
    """The type of a field as the reference writes it; pydantic moves ``Annotated`` metadata
    of the outer type into ``field.metadata``, where the unit and preset parsers sit."""
    names = {getattr(getattr(m, "func", None), "__name__", "") for m in field.metadata}
    if "parse_length" in names:
        return "length"
    if "_signed_length" in names:
        return "signed length"
    if "_colour" in names:
        return "colour"
    if "parse" in names:
        return "preset name or table (width, height)"
    return _type_name(field.annotation)


def _bounds_text(field: Any) -> str:
    """The field's range as the reference writes it: `` (0 to 99)``, `` (at most 8 items)``."""
    low = high = ""
    items_low = items_high = ""
    for m in field.metadata:
        for attr, op in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
            value = getattr(m, attr, None)
            if value is not None:
                shown = f"{value:,}" if isinstance(value, int) else f"{value:g}"
                if op.startswith(">"):
                    low = f"{'' if op == '>=' else 'more than '}{shown}"
                else:
                    high = f"{'' if op == '<=' else 'less than '}{shown}"
        if getattr(m, "min_length", None) is not None:
            items_low = str(m.min_length)
        if getattr(m, "max_length", None) is not None:
            items_high = str(m.max_length)
    parts = []
    if low and high:
        parts.append(f"{low} to {high}")
    elif high:
        parts.append(f"at most {high}")
    elif low:
        parts.append(f"at least {low}")
    if items_high:
        parts.append(f"{items_low or 0} to {items_high} items")
    elif items_low:
        parts.append(f"at least {items_low} items")
    return f" ({'; '.join(parts)})" if parts else ""


def _default_text(field: Any) -> str:
    if field.default is PydanticUndefined and field.default_factory is None:
        return "**required**"
    value = field.default if field.default_factory is None else field.default_factory()
    if isinstance(value, BaseModel):
        return "(table below)"
    if isinstance(value, tuple | list) and not value:
        return "`[]`"
    if value is None:
        return "none"
    if isinstance(value, str):
        return f'`"{value}"`'
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return f"`{value}`".replace("`(", "`[").replace(")`", "]`")


def _nested_models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    out: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        out.extend(_nested_models(arg))
    return out


def _model_section(model: type[BaseModel], key: str, seen: set[type[BaseModel]]) -> list[str]:
    lines = [f"### `{key}`", ""]
    doc = (model.__doc__ or "").strip().splitlines()
    if doc:
        lines += [doc[0], ""]
    lines += ["| key | type | default | meaning |", "|---|---|---|---|"]
    nested: list[tuple[str, type[BaseModel]]] = []
    for name, field in model.model_fields.items():
        desc = (field.description or "").replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{name}` | {_field_type(field)}{_bounds_text(field)} "
                     f"| {_default_text(field)} "
                     f"| {desc} |")
        for sub in _nested_models(field.annotation):
            if sub not in seen:
                seen.add(sub)
                nested.append((f"{key}.{name}" if key else name, sub))
    lines.append("")
    for sub_key, sub in nested:
        lines += _model_section(sub, sub_key, seen)
    return lines


def decks_markdown() -> str:
    """The text of ``docs/decks.md``: every key of every family, with type and default."""
    lines = [
        "# Deck file reference",
        "",
        "<!-- Generated from the deck models by `pytest --update-goldens`; do not edit. -->",
        "",
        "A deck is a TOML file. Lengths are numbers of millimetres or strings with a unit",
        "(`\"63mm\"`, `\"2.5in\"`, `\"9pt\"`, `\"1cm\"`); colours are `\"#rrggbb\"`. Unknown keys",
        "are errors. `paperproof schema [FAMILY]` prints the same format as JSON Schema for",
        "editor completion; `paperproof new FAMILY PATH` writes a commented starter deck.",
        "Each family's rules and checks are described in `docs/families/<family>.md`.",
        f"Lengths are at most {MAX_LENGTH_MM:g} mm.",
        "",
        *limits_markdown().splitlines(),
        "",
        "## Keys every deck has",
        "",
    ]
    seen: set[type[BaseModel]] = set()
    base_fields = DeckBase.model_fields
    lines += _model_section(DeckBase, "", seen)[2:]
    for fam in all_families():
        model = deck_model(fam.name, fam.Params)
        assert set(base_fields) < set(model.model_fields)
        lines += [f"## Family `{fam.name}`: {fam.title}", "", fam.summary, ""]
        lines += _model_section(fam.Params, fam.name, seen)
    return "\n".join(lines).rstrip() + "\n"
