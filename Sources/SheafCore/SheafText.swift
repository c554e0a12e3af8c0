// SheafText (notes as text: lines, the document's pieces, the line and note merge; no Foundation,
// so the small merge-driver executable can link it alone) is part of what SheafCore offers.
@_exported import SheafText
