"""PyYAML's safe loader, bounded: it counts, while it composes, how many values each node stands for
with its aliases expanded (before anything is expanded), refuses a key given twice, and knows each
node's path for messages. Imported only for a situation that is not JSON."""

from __future__ import annotations

from typing import Any

import yaml

from mtgkb.reasoning.situation_errors import (
    GIVEN_TWICE,
    MAX_DIGITS,
    MERGE_TAG,
    TOO_DEEP,
    HugeNumber,
    field_path,
    item_path,
    situation_error,
)
from mtgkb.reasoning.situation_limits import MAX_DEPTH, MAX_VALUES


class BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader that counts, while it composes, how many values each node stands for
    with its aliases expanded (before anything is expanded), and knows each node's path."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.sizes: dict[int, int] = {}  # id(node) -> values it stands for, aliases expanded
        self.paths: dict[int, str] = {}  # id(node) -> where it was composed
        self.parent_paths: list[str] = []

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        above = self.parent_paths[-1] if self.parent_paths else ""
        if parent is None or index is None:  # the document, or a mapping's key
            path = above
        elif isinstance(index, yaml.Node):  # a mapping's value: index is its key
            path = field_path(above, index.value)
        else:
            path = item_path(above, index)
        if self.check_event(yaml.AliasEvent):
            target = self.anchors.get(self.peek_event().anchor)
            if target is not None and id(target) not in self.sizes:
                raise situation_error(path, "a YAML alias that stands for a value containing itself")
            return super().compose_node(parent, index)  # the anchored node, already counted
        if len(self.parent_paths) > MAX_DEPTH:
            raise situation_error(path, TOO_DEEP)
        self.parent_paths.append(path)
        try:
            node = super().compose_node(parent, index)
        finally:
            self.parent_paths.pop()
        size = 1
        if isinstance(node, yaml.SequenceNode):
            size += sum(self.sizes[id(child)] for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            size += sum(self.sizes[id(key)] + self.sizes[id(value)] for key, value in node.value)
        if size > MAX_VALUES:
            raise situation_error(
                path,
                f"stands for more than {MAX_VALUES:,} values once its YAML aliases are expanded; "
                "a situation holds at most that many",
            )
        self.sizes[id(node)] = size
        self.paths[id(node)] = path
        return node

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """A key given twice in one mapping is refused; keys merged in with ``<<`` may be replaced."""
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if key_node.tag == MERGE_TAG:
                    continue
                key = self.construct_object(key_node, deep=deep)
                try:
                    given = key in seen
                except TypeError:  # an unhashable key: PyYAML's own error says so
                    continue
                if given:
                    raise situation_error(field_path(self.paths.get(id(node), ""), key), GIVEN_TWICE)
                seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int | HugeNumber:
        # Long digit strings and base 60 ("1:30:00") would otherwise be computed whatever their size.
        digits = sum(character.isalnum() for character in str(node.value))
        if digits > MAX_DIGITS:
            return HugeNumber(digits)
        return super().construct_yaml_int(node)


BoundedLoader.add_constructor("tag:yaml.org,2002:int", BoundedLoader.construct_yaml_int)
