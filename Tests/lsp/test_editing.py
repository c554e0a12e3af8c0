# `sheaf lsp` changing the vault through the editor: rename by `sheaf mv`'s rule as a
# WorkspaceEdit the editor applies, and the code actions that mend a link.
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import VAULT, uri
from test_links import open_note


def apply(text: str, edit: types.TextEdit) -> str:
    """The text after one edit (positions in UTF-16 code units)."""
    lines = text.split("\n")
    def offset(p):
        before = "\n".join(lines[:p.line]) + ("\n" if p.line else "")
        line = lines[p.line].encode("utf-16-le")[: 2 * p.character].decode("utf-16-le")
        return len(before) + len(line)
    return text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]


async def test_rename_is_mvs_rewrite_of_every_linking_note_then_the_file(client: LanguageClient):
    draft = "Unsaved: [[Open questions#Storage]] — é\n"
    doc = open_note(client, VAULT, "Draft.md", draft, version=7)
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=0, character=12), new_name="Questions ouvertes"))
    changes = edit.document_changes
    renames = [c for c in changes if isinstance(c, types.RenameFile)]
    assert [(r.old_uri, r.new_uri) for r in renames] == [
        (uri(VAULT, "Projects/Sheaf sync/Open questions.md"), uri(VAULT, "Projects/Sheaf sync/Questions ouvertes.md"))]
    assert isinstance(changes[-1], types.RenameFile)  # after every text edit
    texts = {c.text_document.uri: c for c in changes if isinstance(c, types.TextDocumentEdit)}
    overview = (VAULT / "Projects/Sheaf sync/Overview.md").read_text()
    after = apply(overview, texts[uri(VAULT, "Projects/Sheaf sync/Overview.md")].edits[0])
    assert "- [[Questions ouvertes|Open questions]]" in after and "[[Open questions]]" not in after
    # The unsaved buffer is edited as it is, at its version.
    assert texts[doc].text_document.version == 7
    assert apply(draft, texts[doc].edits[0]) == "Unsaved: [[Questions ouvertes#Storage|Open questions > Storage]] — é\n"
    # Nothing was written: the editor applies the edit.
    assert (VAULT / "Projects/Sheaf sync/Open questions.md").exists()


async def test_rename_on_the_notes_own_text_moves_it_and_mends_its_backlinks(client: LanguageClient):
    path = "Projects/Home server/Backup strategy.md"
    text = (VAULT / path).read_text()
    doc = open_note(client, VAULT, path, text)
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=0, character=0), new_name="Archive/Backups"))
    renames = [(c.old_uri, c.new_uri) for c in edit.document_changes if isinstance(c, types.RenameFile)]
    assert renames == [(doc, uri(VAULT, "Archive/Backups.md"))]
    edited = {c.text_document.uri for c in edit.document_changes if isinstance(c, types.TextDocumentEdit)}
    assert uri(VAULT, "Projects/Home server/Setup log.md") in edited


async def test_rename_onto_an_existing_note_is_refused(client: LanguageClient):
    doc = open_note(client, VAULT, "Draft.md", "[[Open questions]]\n")
    try:
        await client.text_document_rename_async(types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=doc), position=types.Position(line=0, character=4), new_name="Overview"))
    except Exception as error:  # the protocol's error reply
        assert "already there" in str(error)
    else:
        raise AssertionError("the rename was not refused")


async def code_actions(client: LanguageClient, doc: str, line: int, character: int):
    at = types.Position(line=line, character=character)
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc), range=types.Range(start=at, end=at),
        context=types.CodeActionContext(diagnostics=[])))


async def test_code_actions_create_a_missing_note_and_fix_a_links_case(client: LanguageClient):
    text = "[[Porto trip]] and [[open QUESTIONS#storage]]\n"
    doc = open_note(client, VAULT, "Trips/Draft.md", text)
    create = await code_actions(client, doc, 0, 4)
    assert [a.title for a in create] == ["Create the note Porto trip.md"]
    made = create[0].edit.document_changes
    assert isinstance(made[0], types.CreateFile) and made[0].uri == uri(VAULT, "Porto trip.md")
    assert made[1].edits[0].new_text == "# Porto trip\n"
    fix = await code_actions(client, doc, 0, text.index("open QUESTIONS") + 3)
    assert [a.title for a in fix] == ["Write the link as [[Open questions]]"]
    assert apply(text, fix[0].edit.changes[doc][0]) == "[[Porto trip]] and [[Open questions#storage]]\n"
