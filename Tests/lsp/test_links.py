# `sheaf lsp` against a real client: the server's lifecycle, link completion, go to definition
# and diagnostics, on the samples vault (conftest.py), with non-ASCII text and hostile input.
import asyncio
import pathlib
import time

from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import CHANGING, VAULT, WATCHED, uri


def open_note(client: LanguageClient, vault: pathlib.Path, path: str, text: str, version: int = 1) -> str:
    doc = uri(vault, path)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=doc, language_id="markdown", version=version, text=text)))
    return doc


def change(client: LanguageClient, doc: str, text: str, version: int):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def diagnostics(client: LanguageClient, doc: str, until=lambda d: True, deadline: float = 30):
    """The diagnostics last published for `doc`, once `until` holds for them."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        found = client.diagnostics.get(doc)
        if found is not None and until(list(found)):
            return list(found)
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics as expected for {doc}: {client.diagnostics.get(doc)}")


async def complete(client: LanguageClient, doc: str, line: int, character: int):
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=line, character=character)))
    return list(result.items if isinstance(result, types.CompletionList) else (result or []))


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


async def test_initialize_announces_what_the_server_does(client: LanguageClient):
    # (the fixture initialized it; ask again what a second client would be told)
    assert client.capabilities is not None
    doc = open_note(client, VAULT, "Draft.md", "# Draft\n")
    assert await diagnostics(client, doc) == []


async def test_completion_after_brackets_offers_titles_and_inserts_the_shortest_link(client: LanguageClient):
    doc = open_note(client, VAULT, "Draft.md", "See [[backup str\n")
    items = await complete(client, doc, 0, len("See [[backup str"))
    assert items, "no completion"
    first = items[0]
    assert first.label == "Backup strategy"
    assert first.text_edit.new_text == "Backup strategy]]"
    assert first.text_edit.range.start == types.Position(line=0, character=len("See [["))


async def test_completion_writes_the_vault_path_of_a_note_whose_name_another_note_shares(client: LanguageClient):
    doc = open_note(client, VAULT, "Draft.md", "[[Ideas")
    items = await complete(client, doc, 0, len("[[Ideas"))
    by_detail = {i.detail: i.text_edit.new_text for i in items}
    assert by_detail["Inbox/Ideas.md"] == "Ideas]]"
    assert by_detail["Projects/Ideas.md"] == "Projects/Ideas]]"


async def test_completion_in_a_front_matter_property_writes_the_link_inside_its_quotes(client: LanguageClient):
    doc = open_note(client, VAULT, "Draft.md", '---\nup: "[[backup str"\n---\n# Draft\n')
    items = await complete(client, doc, 1, len('up: "[[backup str'))
    assert items[0].text_edit.new_text == "Backup strategy]]"


async def test_completion_counts_positions_in_utf16_after_non_ascii_text(client: LanguageClient):
    line = "Café 𝄞 ναι [[Русск"
    doc = open_note(client, VAULT, "Languages/Draft.md", "# Draft\n" + line + "]] after\n")
    items = await complete(client, doc, 1, utf16(line))
    assert items[0].label == "Русский"
    assert items[0].text_edit.new_text == "Русский"  # the closing brackets are there already
    assert items[0].text_edit.range.start.character == utf16("Café 𝄞 ναι [[")
    assert items[0].text_edit.range.end.character == utf16(line)


async def test_completion_after_a_hash_offers_the_notes_headings(client: LanguageClient):
    doc = open_note(client, VAULT, "Draft.md", "[[Open questions#")
    items = await complete(client, doc, 0, len("[[Open questions#"))
    assert "Storage" in [i.label for i in items]
    own = open_note(client, VAULT, "Own.md", "# Top\n## Second part\n[[#sec")
    items = await complete(client, own, 2, len("[[#sec"))
    assert [i.label for i in items] == ["Second part"]


async def test_completion_after_a_caret_offers_block_ids_and_definition_finds_the_block(client: LanguageClient):
    text = "# Own\nfirst ^intro-1\n\nsecond ^b2\n[[#^"
    doc = open_note(client, VAULT, "Blocks.md", text)
    items = await complete(client, doc, 4, len("[[#^"))
    assert [i.label for i in items] == ["intro-1", "b2"]
    change(client, doc, text + "b2]]\n", 2)
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=4, character=5)))
    assert found.uri == doc and found.range.start.line == 3


async def test_definition_goes_to_the_note_and_its_heading(client: LanguageClient):
    text = "x [[Open questions#Storage]] y [[Backup strategy]]\n"
    doc = open_note(client, VAULT, "Draft.md", text)
    target = (VAULT / "Projects/Sheaf sync/Open questions.md").read_text().split("\n")
    storage = next(i for i, l in enumerate(target) if l.startswith("#") and "Storage" in l)
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=0, character=8)))
    assert found.uri == uri(VAULT, "Projects/Sheaf sync/Open questions.md")
    assert found.range.start.line == storage
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=0, character=text.index("Backup") + 2)))
    assert found.uri == uri(VAULT, "Projects/Home server/Backup strategy.md")
    none = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=0, character=0)))
    assert not none


async def test_diagnostics_name_broken_ambiguous_and_heading_links_of_the_unsaved_buffer(client: LanguageClient):
    text = "# Draft\nÀ [[Nowhere at all]] [[Ideas]] [[Open questions#No such heading]] [[Open questions#storage!]]\n"
    doc = open_note(client, VAULT, "Draft.md", text)
    found = await diagnostics(client, doc, lambda d: len(d) == 3)
    by_code = {d.code: d for d in found}
    assert set(by_code) == {"broken-link", "ambiguous-link", "broken-heading"}
    broken = by_code["broken-link"].range
    assert broken.start == types.Position(line=1, character=utf16("À [[")) and broken.end.character == utf16("À [[Nowhere at all")
    assert by_code["broken-link"].severity == types.DiagnosticSeverity.Error
    # Fixed in the buffer, never saved: the diagnostics follow the text.
    change(client, doc, "# Draft\n[[Backup strategy]] [[Inbox/Ideas]]\n", 2)
    assert await diagnostics(client, doc, lambda d: d == []) == []


async def test_untitled_buffers_and_files_outside_the_vault_get_nothing_and_no_error(client: LanguageClient, tmp_path):
    outside = (tmp_path / "elsewhere.md").as_uri()
    for doc in [outside, "untitled:Untitled-1"]:
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=doc, language_id="markdown", version=1, text="[[Nowhere]] [[Back")))
        assert await complete(client, doc, 0, len("[[Nowhere]] [[Back")) == []
        found = await client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=0, character=3)))
        assert not found
    probe = open_note(client, VAULT, "Probe.md", "[[Nowhere]]")
    await diagnostics(client, probe)  # published in order: the others would have come first
    assert outside not in client.diagnostics and "untitled:Untitled-1" not in client.diagnostics


async def test_hostile_text_neither_crashes_the_server_nor_reaches_replies_raw(client: LanguageClient):
    huge = "[[" + "x" * 300_000 + "]] " + "é" * 30_000 + " [[Back"
    doc = open_note(client, VAULT, "Huge.md", huge)
    items = await complete(client, doc, 0, utf16(huge))
    assert items and items[0].label == "Backup strategy"
    controls = "# T\n[[Evil\x1b]2;pwned\x07 $(rm -rf ~)]] [[Nope\x01\x02]]\n"
    doc = open_note(client, VAULT, "Evil.md", controls)
    found = await diagnostics(client, doc, lambda d: len(d) >= 1)
    for d in found:
        assert not any(ord(c) < 0x20 for c in d.message), d.message
    # A title with control characters and shell syntax is offered without the control characters.
    doc = open_note(client, VAULT, "Hostile probe.md", "[[evil")
    items = await complete(client, doc, 0, len("[[evil"))
    evil = next(i for i in items if i.detail == "Inbox/Hostile.md")
    assert not any(ord(c) < 0x20 or 0x202A <= ord(c) <= 0x202E for c in evil.label + evil.text_edit.new_text), evil.label
    assert "$(touch pwned)" in evil.label
    # A note whose bytes are not UTF-8 is offered, followed and checked as every command reads it.
    doc = open_note(client, VAULT, "Bad probe.md", "[[Bad bytes]] [[bad by")
    items = await complete(client, doc, 0, len("[[Bad bytes]] [[bad by"))
    assert items[0].detail == "Inbox/Bad bytes.md" and items[0].text_edit.new_text == "Bad bytes]]"
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=0, character=4)))
    assert found.uri == uri(VAULT, "Inbox/Bad bytes.md")
    # Still answering.
    doc = open_note(client, VAULT, "After.md", "[[Backup str")
    assert (await complete(client, doc, 0, len("[[Backup str")))[0].label == "Backup strategy"


async def test_a_note_written_on_disk_is_offered_once_the_watcher_indexed_it(changing: LanguageClient):
    doc = open_note(changing, CHANGING, "Draft.md", "[[Zanzibar]]\n")
    await diagnostics(changing, doc, lambda d: [x.code for x in d] == ["broken-link"])
    (CHANGING / "Trips" / "Zanzibar.md").write_text("# Zanzibar\n")
    # The watcher indexes it and the open note's diagnostics are published again.
    await diagnostics(changing, doc, lambda d: d == [])
    items = await complete(changing, open_note(changing, CHANGING, "Draft2.md", "[[zanz"), 0, len("[[zanz"))
    assert items[0].text_edit.new_text == "Zanzibar]]"


async def test_with_sheaf_watch_running_the_server_answers_from_its_index(watched: LanguageClient):
    doc = open_note(watched, WATCHED, "Draft.md", "[[Madeira]]\n")
    await diagnostics(watched, doc, lambda d: [x.code for x in d] == ["broken-link"])
    (WATCHED / "Trips" / "Madeira.md").write_text("# Madeira\n")
    probe = open_note(watched, WATCHED, "Draft2.md", "[[madei")
    end = time.monotonic() + 30
    while time.monotonic() < end:
        items = await complete(watched, probe, 0, len("[[madei"))
        if items and items[0].text_edit.new_text == "Madeira]]":
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the note sheaf watch indexed is not offered")
