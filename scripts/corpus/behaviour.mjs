// What the shop pages of the corpus do when acted on, so that a benchmark can replay real tasks on
// them: the listing's "Add to basket" buttons count into the header's basket and say what was added,
// its filter form keeps the products within the price range (the others hidden, the count line
// rewritten); the product page's question form, once valid, is replaced by a thank-you line. Fixed
// text (no random draws): adding it changes nothing else on the pages.

/** The listing: basket count and status line, price filter. */
export const LISTING_SCRIPT = `<script>
(() => {
  const badge = document.querySelector('.cart .badge');
  const toolbar = document.querySelector('.toolbar');
  const showing = toolbar.querySelector('p');
  const status = document.createElement('p');
  status.setAttribute('role', 'status');
  toolbar.append(status);
  let count = 0;
  const cards = [...document.querySelectorAll('.cards .card')];
  for (const card of cards) {
    const add = [...card.querySelectorAll('button')].find((b) => b.textContent === 'Add to basket');
    add.addEventListener('click', () => {
      count += 1;
      badge.textContent = String(count);
      status.textContent = 'Added ' + card.querySelector('h2').textContent + ' to your basket';
    });
  }
  document.querySelector('aside form').addEventListener('submit', (event) => {
    event.preventDefault();
    const min = Number(document.getElementById('pmin').value) || 0;
    const max = Number(document.getElementById('pmax').value) || 400;
    let shown = 0;
    for (const card of cards) {
      const price = Number(card.querySelector('.price strong').textContent.replace(/[^0-9.]/g, ''));
      card.hidden = price < min || price > max;
      if (!card.hidden) shown += 1;
    }
    showing.textContent = 'Showing ' + shown + ' products from £' + min + ' to £' + max;
  });
})();
</script>`;

/** The product page: the question form answers with a short thank-you line in its place. */
export const QUESTION_SCRIPT = `<script>
(() => {
  const ask = document.querySelector('.question form');
  ask.addEventListener('submit', (event) => {
    event.preventDefault();
    const done = document.createElement('p');
    done.setAttribute('role', 'status');
    done.textContent = 'Thanks, ' + document.getElementById('ask-name').value + ': question sent.';
    ask.replaceWith(done);
  });
})();
</script>`;
