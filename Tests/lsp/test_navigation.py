# `sheaf lsp` for finding one's way: references (backlinks with the linking line, links to a
# heading), hover, document links, document and workspace symbols, and tag completion.
import pathlib

from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import VAULT, uri
from test_links import complete, open_note, utf16


def file_note(client: LanguageClient, path: str) -> tuple[str, list[str]]:
    text = (VAULT / path).read_text()
    return open_note(client, VAULT, path, text), text.split("\n")


def at(doc: str, line: int, character: int):
    return dict(text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=line, character=character))


async def references(client: LanguageClient, doc: str, line: int, character: int):
    found = await client.text_document_references_async(types.ReferenceParams(
        context=types.ReferenceContext(include_declaration=False), **at(doc, line, character)))
    return sorted((l.uri, l.range.start.line, l.range.start.character, l.range.end.character) for l in found or [])


async def test_references_on_a_note_are_its_backlinks_with_the_linking_line(client: LanguageClient):
    doc, lines = file_note(client, "Projects/Sheaf sync/Open questions.md")
    found = await references(client, doc, lines.index("- Do we keep shadow copies for three-way merge? Doubles disk use for the vault."), 3)
    expected = []
    for path, line_text in [("Projects/Ideas.md", "Related: [[Sheaf sync overview]], [[Open questions]], and the older dump in [[Inbox/Ideas]]."),
                            ("Projects/Sheaf sync/Conflict resolution.md", "shadow copy of every file. Parked — see [[Open questions#Storage]]."),
                            ("Projects/Sheaf sync/Overview.md", "- [[Open questions]]"),
                            ("Work/Meetings/2026-02-17 Weekly sync.md", "- Went through [[Open questions]] for sync. Leaning towards:")]:
        file_lines = (VAULT / path).read_text().split("\n")
        line = file_lines.index(line_text)
        start = utf16(line_text[:line_text.index("[[Open questions") + 2])
        end = start + utf16("Open questions#Storage" if "#Storage" in line_text else "Open questions")
        expected.append((uri(VAULT, path), line, start, end))
    assert found == sorted(expected)


async def test_references_on_a_heading_are_the_links_to_that_heading(client: LanguageClient):
    doc, lines = file_note(client, "Projects/Sheaf sync/Open questions.md")
    found = await references(client, doc, lines.index("## Storage"), 4)
    assert [f[0] for f in found] == [uri(VAULT, "Projects/Sheaf sync/Conflict resolution.md")]


async def test_references_on_a_link_are_the_links_to_its_note(client: LanguageClient):
    doc = open_note(client, VAULT, "Draft.md", "see [[Open questions]]\n")
    found = await references(client, doc, 0, 8)
    assert len(found) == 4 and uri(VAULT, "Projects/Sheaf sync/Overview.md") in [f[0] for f in found]


async def test_hover_shows_the_notes_title_and_first_lines_and_a_files_size(client: LanguageClient):
    doc = open_note(client, VAULT, "Projects/Garden shed/Draft.md", "[[Open questions]] and ![[shed plan.svg]]\n")
    hover = await client.text_document_hover_async(types.HoverParams(**at(doc, 0, 5)))
    assert "Open questions" in hover.contents.value and "shadow copies" in hover.contents.value
    hover = await client.text_document_hover_async(types.HoverParams(**at(doc, 0, utf16("[[Open questions]] and ![[sh"))))
    size = (VAULT / "Projects/Garden shed/shed plan.svg").stat().st_size
    assert f"{size} bytes" in hover.contents.value
    assert await client.text_document_hover_async(types.HoverParams(**at(doc, 1, 0))) is None
    # An image `sheaf init` indexed: its pixels and its thumbnail, shown and named.
    doc = open_note(client, VAULT, "Recipes/Baking/Draft.md", "![[focaccia crumb.jpg]]\n")
    hover = await client.text_document_hover_async(types.HoverParams(**at(doc, 0, 6)))
    assert " px" in hover.contents.value, hover.contents.value
    thumbnail = hover.contents.value.split("thumbnail: `")[1].split("`")[0]
    assert pathlib.Path(thumbnail).is_file() and "/.sheaf/thumbnails/" in thumbnail


async def test_document_links_point_every_link_at_its_file(client: LanguageClient):
    text = "[[Open questions]] [x](Open%20questions.md) [[Nowhere]] ![[shed plan.svg]]\n"
    doc = open_note(client, VAULT, "Draft.md", text)
    links = await client.text_document_document_link_async(types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=doc)))
    targets = [(l.range.start.character, l.target) for l in links]
    assert targets == [(2, uri(VAULT, "Projects/Sheaf sync/Open questions.md")),
                       (text.index("Open%20"), uri(VAULT, "Projects/Sheaf sync/Open questions.md")),
                       (text.index("shed plan"), uri(VAULT, "Projects/Garden shed/shed plan.svg"))]


async def test_document_symbols_are_the_headings_as_a_tree(client: LanguageClient):
    doc, lines = file_note(client, "Projects/Sheaf sync/Open questions.md")
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=doc)))
    assert [s.name for s in symbols] == ["Open questions"]
    assert [c.name for c in symbols[0].children] == ["Storage", "Identity", "Links"]
    assert symbols[0].children[0].selection_range.start.line == lines.index("## Storage")


async def test_workspace_symbols_are_notes_by_title(client: LanguageClient):
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="backup str"))
    assert found[0].name == "Backup strategy"
    assert found[0].location.uri == uri(VAULT, "Projects/Home server/Backup strategy.md")


async def test_tags_complete_after_a_hash(client: LanguageClient):
    doc = open_note(client, VAULT, "Draft.md", "text #todo/q\n")
    items = await complete(client, doc, 0, len("text #todo/q"))
    assert [i.label for i in items] == ["todo/quarterly"]
    assert items[0].text_edit.range.start.character == len("text #")
    items = await complete(client, doc, 0, 3)  # in the word "text": no tag
    assert items == []


async def test_references_on_a_tag_are_every_place_it_is_written(client: LanguageClient):
    doc = open_note(client, VAULT, "Draft.md", "Ça — #TODO here\n")
    found = await references(client, doc, 0, utf16("Ça — #TO"))
    line_text = "- Tomás pointed out we have no test vault with realistic content. Fair. #todo"
    path = "Work/Meetings/2026-02-17 Weekly sync.md"
    line = (VAULT / path).read_text().split("\n").index(line_text)
    start = utf16(line_text[: line_text.index("#todo") + 1])
    assert found == [(uri(VAULT, path), line, start, start + 4)]


async def test_positions_on_one_long_line_of_links_are_counted_once(client: LanguageClient):
    # Regression: each position decoded its line's prefix again, so a synced note of one 1 MB
    # line of links (50,000 of them, with accents and a character outside the BMP) took minutes
    # per request. Every link is there, at its UTF-16 column.
    piece = "[[Open questions]] éé𝄞 "
    text = piece * 50_000 + "\n"
    doc = open_note(client, VAULT, "Draft.md", text)
    links = await client.text_document_document_link_async(types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=doc)))
    assert len(links) == 50_000
    last = max(links, key=lambda l: l.range.start.character)
    assert (last.range.start.line, last.range.start.character) == (0, utf16(piece) * 49_999 + 2)
