# The write forms in a real browser, checked on disk afterwards: a conflict resolved by keeping
# both, a note made through the New form, a version's diff to today, and the vault served over
# https (`--tls-cert`/`--tls-key`, a certificate openssl made, which this Chromium is told to
# accept) with its Secure cookie.
import os
import pathlib
import subprocess
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from conftest import chromium, screenshot, start


def wait(driver, seconds=15):
    return WebDriverWait(driver, seconds)


def commit(served, message):
    """Everything on disk committed with git's command line (the server runs with --no-sync)."""
    subprocess.run(["git", "add", "-A"], cwd=served["vault"], env=served["env"], check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", message],
                   cwd=served["vault"], env=served["env"], check=True)


def test_keeping_both_sides_of_a_conflict_leaves_the_note_and_a_copy_on_disk(served, browser):
    folder = served["vault"] / "Reading"
    (folder / "Shelf.md").write_text("# Shelf\n\nthe note's own line\n")
    conflict = folder / "Shelf.conflict-20260101-000000-laptop.md"
    conflict.write_text("---\nconflict-of: Reading/Shelf.md\n---\n# Shelf\n\nthe other device's line\n")
    commit(served, "a conflict")

    def listed(driver):
        driver.get(served["base"] + "/conflicts")
        return driver.find_elements(By.XPATH, "//div[@class='conflict'][.//a[text()='Reading/Shelf.md']]")
    entry = wait(browser, 30).until(listed)[0]
    screenshot(browser, "8-conflicts")
    entry.find_element(By.CSS_SELECTOR, "button[value=both]").click()
    wait(browser).until(EC.url_contains("/n/Reading/Shelf.md"))
    assert not conflict.exists()
    assert (folder / "Shelf.md").read_text() == "# Shelf\n\nthe note's own line\n"
    copies = [p for p in folder.iterdir() if p.name.startswith("Shelf") and p.name != "Shelf.md"]
    assert len(copies) == 1 and "the other device's line" in copies[0].read_text(), copies
    assert "conflict-of" not in copies[0].read_text()


def test_the_new_note_form_makes_the_note_on_disk(served, browser):
    browser.get(served["base"] + "/f/Inbox")
    browser.find_element(By.LINK_TEXT, "New note here").click()
    form = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, "form.new")))
    assert form.find_element(By.NAME, "folder").get_attribute("value") == "Inbox"
    form.find_element(By.NAME, "title").send_keys("Made in the browser")
    form.find_element(By.NAME, "tags").send_keys("browser, test")
    form.find_element(By.NAME, "body").send_keys("A line typed into the new-note form.")
    screenshot(browser, "9-new-note")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    saved = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, "p.saved")))
    assert "Made this note." in saved.text
    assert browser.current_url.split("?")[0].endswith("/n/Inbox/Made%20in%20the%20browser.md")
    text = (served["vault"] / "Inbox" / "Made in the browser.md").read_text()
    assert "title: Made in the browser" in text and "A line typed into the new-note form." in text
    assert "browser" in text and "test" in text


def test_a_version_shows_what_changed_from_it_to_today(served, browser):
    note = served["vault"] / "Recipes" / "Weeknight dal.md"
    commit(served, "before the change")
    lines = note.read_text().split("\n")
    lines.insert(min(8, len(lines)), "A line added on disk after the last commit <b>bold?</b>")
    note.write_text("\n".join(lines))
    browser.get(served["base"] + "/history/Recipes/Weeknight%20dal.md")
    browser.find_element(By.LINK_TEXT, "changes to today").click()
    added = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".diff .added")))
    assert "A line added on disk after the last commit <b>bold?</b>" in added.text
    assert not browser.find_elements(By.CSS_SELECTOR, ".diff b")
    screenshot(browser, "10-version-diff")


def test_the_vault_over_https_with_a_secure_cookie(served):
    folder = pathlib.Path(tempfile.mkdtemp(prefix="sheaf-tls-"))
    cert, key = folder / "server.crt", folder / "server.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    server, url = start(os.environ["SHEAF_BIN"], served["vault"], served["env"],
                        ["--tls-cert", str(cert), "--tls-key", str(key)])
    driver = chromium("--ignore-certificate-errors")
    try:
        assert url.startswith("https://127.0.0.1:")
        driver.get(url)
        assert driver.current_url.startswith("https://") and "token=" not in driver.current_url
        assert driver.find_element(By.CSS_SELECTOR, "header .home").text == "samples"
        cookies = driver.get_cookies()
        assert cookies and all(c["secure"] and c["httpOnly"] for c in cookies), cookies
        driver.get(url.split("/?")[0] + "/n/Trips/Lisbon/Budget.md")
        assert driver.find_element(By.CSS_SELECTOR, ".body img").get_attribute("src").startswith("https://")
        screenshot(driver, "11-https")
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=30)


def test_text_typed_into_the_append_box_survives_a_live_update_and_is_appended(served, browser):
    note = served["vault"] / "Inbox" / "Gift ideas.md"
    browser.get(served["base"] + "/n/Inbox/Gift%20ideas.md")
    box = browser.find_element(By.CSS_SELECTOR, "form.append textarea")
    box.send_keys("A line typed into the append box")
    note.write_text(note.read_text() + "\nA line written on disk meanwhile\n")
    wait(browser, 30).until(lambda d: d.find_element(By.ID, "sync").text == "changed on disk")
    box = browser.find_element(By.CSS_SELECTOR, "form.append textarea")
    assert box.get_attribute("value") == "A line typed into the append box"
    box.find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    saved = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, "p.saved")))
    assert saved.text == "Appended."
    assert note.read_text().endswith("\nA line written on disk meanwhile\nA line typed into the append box\n")
