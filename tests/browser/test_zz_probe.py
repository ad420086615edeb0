import pytest
from tests.browser.test_widget import open_demo, ask, wait_done

@pytest.mark.parametrize("q", ["What is aliasing?", "What is the Nyquist rate?", "Why do we need an anti-aliasing filter?", "What is quantization noise?", "How does the DFT show frequencies?", "What is a low-pass filter?"])
def test_probe(page, live, q):
    open_demo(page, live)
    page.locator("#tc-bubble").click()
    ask(page, q)
    wait_done(page)
    print(q, page.evaluate("""() => { const l = document.getElementById('textbook-chat').shadowRoot.getElementById('tc-log'); return [l.scrollHeight, l.clientHeight, l.querySelectorAll('a.source').length] }"""))
