print("typeset")
