// The book's search scorer (html_search_scorer, set by book/_ext/cmtlab_book.py): the API reference's
// pages (book/api*) rank below every chapter and page of the book, so a search for "Eifel" or "PR-R"
// shows the chapters first and the library's entries after them.
var Scorer = {
  score: (result) => {
    const [docname, title, anchor, descr, score, filename] = result;
    return docname === "book/api" || docname.startsWith("book/api/") ? score - 100 : score;
  },
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: {0: 15, 1: 5, 2: -5},
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};
