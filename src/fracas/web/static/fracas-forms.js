// The forms' small helpers: copy a link, add and remove the rows of a form's list.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (button) {
      var text = button.getAttribute("data-copy");
      var done = function () { button.textContent = "Copied"; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { select(button); });
      } else {
        select(button);
      }
      return;
    }
    var add = event.target.closest("button[data-add-row]");
    if (add) {
      var list = document.getElementById(add.getAttribute("data-add-row"));
      var template = list && list.querySelector("template");
      if (!template) return;
      var index = Number(list.getAttribute("data-next") || list.children.length);
      list.setAttribute("data-next", String(index + 1));
      var html = template.innerHTML.replace(/__i__/g, String(index));
      template.insertAdjacentHTML("beforebegin", html);
      var row = template.previousElementSibling;
      var first = row && row.querySelector("input, select");
      if (first) first.focus();
      return;
    }
    var remove = event.target.closest("button[data-remove-row]");
    if (remove) {
      var gone = remove.closest(".row");
      var next = gone && (gone.nextElementSibling || gone.previousElementSibling);
      if (gone) gone.remove();
      var focus = next && next.querySelector && next.querySelector("input, button");
      if (focus) focus.focus();
    }
  });
  // Without the clipboard (plain http), the link is selected for the reader to copy.
  function select(button) {
    var link = button.previousElementSibling;
    if (!link) return;
    var range = document.createRange();
    range.selectNodeContents(link);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    button.textContent = "Selected: press Ctrl+C";
  }
})();
